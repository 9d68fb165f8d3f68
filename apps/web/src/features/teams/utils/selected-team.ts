/**
 * The team whose pages are shown, from the path: `/teams/{ref}` and what lies inside it
 * (collections, the trash). Null elsewhere, including the invitation pages: their team is one the visitor
 * may not have joined yet, so the header must not try to load it.
 */
export function selectedTeamRef(pathname: string): string | null {
  const match = /^\/teams\/([^/]+)(?:\/collections(?:\/.*)?|\/trash)?\/?$/.exec(pathname);
  const ref = match?.[1];
  if (ref === undefined) return null;
  try {
    return decodeURIComponent(ref);
  } catch {
    return null;
  }
}
