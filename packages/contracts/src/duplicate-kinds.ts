// Without Zod: the web app's error texts read it on every page.

/**
 * What a 409 `alreadyExists` found taken, in `data.duplicate`, so the message can say it: the
 * invited address is already a member's, or the caller's own; the alias is another team's (or
 * this one's); the internal username is taken in the team.
 */
export const DUPLICATE_KINDS = ['member', 'self', 'alias', 'username'] as const;
export type DuplicateKind = (typeof DUPLICATE_KINDS)[number];

export function isDuplicateKind(value: unknown): value is DuplicateKind {
  return typeof value === 'string' && (DUPLICATE_KINDS as readonly string[]).includes(value);
}
