// Without Zod: the web app's header names the user on every page.

export type DisplayNameSource = Partial<
  Record<'firstName' | 'lastName' | 'nickname' | 'email' | 'username', string | null>
>;

const present = (value: string | null | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
};

/** First and last name, else first name, else nickname, else e-mail, else username (spec §3). */
export function displayName(user: DisplayNameSource): string {
  const first = present(user.firstName);
  const last = present(user.lastName);
  if (first !== undefined && last !== undefined) return `${first} ${last}`;
  return first ?? present(user.nickname) ?? present(user.email) ?? present(user.username) ?? '';
}
