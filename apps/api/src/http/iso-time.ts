/**
 * `new Date(ms).toISOString()` without the Date: the timestamps of every listed row (two or three
 * per row, 20 rows a page) are written this way, and the builtin, which goes through the Date
 * object and its time-zone machinery, cost a third of presenting a page (docs/benchmarks.md,
 * "Authenticated lists under load"). Same output for every instant from 1970 to 9999; anything
 * else (before 1970, not an integer) goes to the builtin.
 */
const MS_PER_DAY = 86_400_000;
/** The largest instant with a four-digit year: 9999-12-31T23:59:59.999Z. */
const MAX = 253_402_300_799_999;

const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

export function isoTime(ms: number): string {
  if (!(ms >= 0 && ms <= MAX) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  // Civil date from days since 1970-01-01 (H. Hinnant, "chrono-compatible low-level date
  // algorithms", civil_from_days), for non-negative day counts.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year < 1000 ? `000${year}`.slice(-4) : year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(millis)}Z`;
}
