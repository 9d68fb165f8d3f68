// Without Zod: the web app stamps download links with it on every page of the team app.

/** The local time as `localTime` takes it. */
export function formatLocalTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`
  );
}

const QUARTER_HOUR_MS = 15 * 60_000;

/**
 * The moment a download was requested, on the caller's clock, as `localTime` takes it: every
 * part of one download is saved under the same name, whenever each one's link is asked for.
 * `localTime` is the caller's clock at `now`; the difference, to the nearest quarter of an hour
 * (every time zone is a whole number of quarters from UTC, and a clock a few minutes off changes
 * nothing), is the caller's offset, applied to `requestedAt`.
 */
export function requestedLocalTime(requestedAt: number, localTime: string, now: number): string {
  const [, y, mo, d, h, mi, s] =
    /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/.exec(localTime) ?? [];
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(local)) return localTime;
  const offset = Math.round((local - now) / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
  const at = new Date(requestedAt + offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}-` +
    `${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`
  );
}
