/**
 * What the sign-in page says it leads to when a guard sent the visitor there from a page behind
 * sign-in. Only the link itself is read: a download link from the e-mail names its collection in
 * `?collection=` (set by the API's mail), and nothing is looked up for a visitor not signed in.
 */
type Page =
  | 'download'
  | 'collection'
  | 'team'
  | 'teams'
  | 'profile'
  | 'uploadCollection'
  | 'uploadTeam'
  | 'page';

export interface SignInPurpose {
  /** An i18n key under auth.signIn.continueTo. */
  key: Page | 'downloadNamed';
  values?: Record<string, string>;
}

const COLLECTION_NAME_MAX = 200;

const PAGES: ReadonlyArray<[RegExp, Page]> = [
  [/^\/teams\/[^/]+\/downloads\/[^/]+\/download\/?$/i, 'download'],
  [/^\/teams\/[^/]+\/collections\/[^/]+\/?$/i, 'collection'],
  [/^\/teams\/[^/]+\/?$/i, 'team'],
  [/^\/(teams|switch-team)\/?$/i, 'teams'],
  [/^\/profile\/?$/i, 'profile'],
  [/^\/upload\/teams\/[^/]+\/collections\/[^/]+\/?$/i, 'uploadCollection'],
  [/^\/upload\/teams\/[^/]+\/?$/i, 'uploadTeam'],
];

export function signInPurpose(path: string): SignInPurpose {
  const url = new URL(path, 'https://app.invalid');
  const page = PAGES.find(([pattern]) => pattern.test(url.pathname))?.[1] ?? 'page';
  if (page === 'download') {
    const name = url.searchParams.get('collection')?.trim();
    if (name && name.length <= COLLECTION_NAME_MAX) {
      return { key: 'downloadNamed', values: { name } };
    }
  }
  return { key: page };
}
