import {
  TOKEN_PROACTIVE_REFRESH_THRESHOLD_MS,
  TOKEN_REFRESH_THRESHOLD_MS,
} from '@raccolta/contracts';

/**
 * Spec §4 "Session": refresh before a call when the access token expires in under 5 minutes, and
 * in the background when it expires in under 15.
 */
export type RefreshNeed = 'none' | 'proactive' | 'required';

export function refreshNeed(expiresAt: number, now: number): RefreshNeed {
  const remaining = expiresAt - now;
  if (remaining < TOKEN_REFRESH_THRESHOLD_MS) return 'required';
  if (remaining < TOKEN_PROACTIVE_REFRESH_THRESHOLD_MS) return 'proactive';
  return 'none';
}

/** Whether tokens expiring at `expiresAt` no longer need the refresh that was asked for. */
export function satisfies(
  expiresAt: number,
  now: number,
  wanted: 'proactive' | 'required',
): boolean {
  const need = refreshNeed(expiresAt, now);
  return wanted === 'required' ? need !== 'required' : need === 'none';
}

/** setTimeout cannot wait longer than this (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * If the server issued tokens that live under 15 minutes, every refresh would be followed by
 * another at once; this floor keeps the background refresh from looping.
 */
export const MIN_PROACTIVE_INTERVAL_MS = 60_000;

/** Milliseconds until the background refresh should run for tokens expiring at `expiresAt`. */
export function proactiveRefreshDelay(
  expiresAt: number,
  now: number,
  lastRefreshAt: number | null,
): number {
  // One millisecond past the threshold: at exactly 15 minutes left the tokens are not yet "under".
  const due = expiresAt - TOKEN_PROACTIVE_REFRESH_THRESHOLD_MS + 1;
  const earliest = lastRefreshAt === null ? now : lastRefreshAt + MIN_PROACTIVE_INTERVAL_MS;
  return Math.min(Math.max(due, earliest, now) - now, MAX_TIMER_DELAY_MS);
}
