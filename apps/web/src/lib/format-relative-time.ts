const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
];

/**
 * "5 minutes ago", "5 minuti fa", "yesterday": how long ago `value` (ISO 8601 or epoch ms) was,
 * in the interface language, in the largest whole unit; under a minute is "now".
 */
export function formatRelativeTime(
  value: string | number,
  language: string,
  nowMs: number,
): string {
  const then = new Date(value).getTime();
  if (Number.isNaN(then)) return String(value);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const elapsed = Math.max(0, nowMs - then);
  for (const [unit, ms] of UNITS) {
    if (elapsed >= ms) return format.format(-Math.floor(elapsed / ms), unit);
  }
  return format.format(0, 'second');
}
