import { isAppPath } from './safe-path';

// sessionStorage: the intended page belongs to this tab's visit, not to every future sign-in.
const REDIRECT_KEY = 'signInRedirect';
export const DEFAULT_SIGNED_IN_PATH = '/teams';

/** Spec §2: the team a public page pre-selects, from the query parameter teamId or team. */
export function teamFromQuery(search: URLSearchParams): string | null {
  const team = (search.get('teamId') ?? search.get('team'))?.trim();
  return team ? team : null;
}

/** Remembers the login-only page a signed-out visitor asked for, so sign-in can return there. */
export function rememberSignInRedirect(path: string): void {
  if (!isAppPath(path)) return;
  try {
    sessionStorage.setItem(REDIRECT_KEY, path);
  } catch {
    // Without storage the visitor lands on the default page: acceptable.
  }
}

export function peekSignInRedirect(): string | null {
  try {
    const path = sessionStorage.getItem(REDIRECT_KEY);
    return isAppPath(path) ? path : null;
  } catch {
    return null;
  }
}

export function forgetSignInRedirect(): void {
  try {
    sessionStorage.removeItem(REDIRECT_KEY);
  } catch {
    // Nothing stored.
  }
}

/**
 * Where a signed-in visitor of a guest-only page goes: the team of the query (spec §2), else the
 * page they were sent away from, else the team list. A remembered page inside the query's team
 * (an invitation to accept, a collection) is more precise than the team's dashboard, so it wins:
 * the accept page sends a signed-out invitee to `/auth/signin?team=…` and expects to come back.
 */
export function signedInTarget(search: URLSearchParams, remembered: string | null): string {
  const team = teamFromQuery(search);
  if (team === null) return remembered ?? DEFAULT_SIGNED_IN_PATH;
  const teamPath = `/teams/${encodeURIComponent(team)}`;
  if (remembered?.toLowerCase().startsWith(`${teamPath.toLowerCase()}/`)) return remembered;
  return teamPath;
}
