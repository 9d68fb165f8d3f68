import { z } from 'zod';

/**
 * Collection deadlines (issue #36, "Deadlines and reminders"): a local date and time with its
 * IANA zone, stored as the instant it names and the zone. The rules here are shared by the API
 * (refusing uploads, reminders) and the web app (the "due in 3 days" chips).
 */

const DAY_MS = 24 * 60 * 60_000;

/** The days before a deadline a reminder goes out when REMINDER_DAYS is not set. */
export const DEFAULT_REMINDER_DAYS = [3, 1] as const;

/** One "send a reminder now" per collection in this window. */
export const REMIND_NOW_WINDOW_MS = 60 * 60_000;

/** Whether `timeZone` is an IANA zone this runtime knows ("Europe/Rome", "UTC"). */
export function isTimeZone(timeZone: string): boolean {
  if (timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function parseLocal(local: string): LocalParts | null {
  const m = LOCAL_PATTERN.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (
    year < 2000 ||
    year > 9999 ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute
  )
    return null;
  return { year, month, day, hour, minute };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock in `timeZone` at the instant `at` (epoch ms), to the second. */
function wallClock(at: number, timeZone: string): LocalParts & { second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(at))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** How far `timeZone` is ahead of UTC at the instant `at`, in ms. */
function offsetAt(at: number, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

function sameMinute(a: LocalParts, b: LocalParts): boolean {
  return (
    a.year === b.year &&
    a.month === b.month &&
    a.day === b.day &&
    a.hour === b.hour &&
    a.minute === b.minute
  );
}

/**
 * The instant (epoch ms) a local date and time ("2026-12-01T18:00") names in `timeZone`, or null
 * when either is not valid. Like Temporal's "compatible" disambiguation: a time the clocks skip
 * (spring forward) is moved forward by the gap, a time they pass twice (fall back) is the first.
 */
export function deadlineInstant(local: string, timeZone: string): number | null {
  const parts = parseLocal(local);
  if (!parts || !isTimeZone(timeZone)) return null;
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute);
  // The zone's offsets a day either side cover any one transition near this time.
  const before = offsetAt(asUtc - DAY_MS, timeZone);
  const after = offsetAt(asUtc + DAY_MS, timeZone);
  const candidates = [...new Set([asUtc - before, asUtc - after])].sort((a, b) => a - b);
  const exact = candidates.find((t) => sameMinute(wallClock(t, timeZone), parts));
  if (exact !== undefined) return exact;
  // Skipped by the clocks: read with the offset before the jump, which lands after it.
  return asUtc - before;
}

/** The local date and time ("2026-12-01T18:00") of an instant in `timeZone`. */
export function localDeadline(at: number, timeZone: string): string {
  const w = wallClock(at, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** Days since 1970-01-01 of the calendar date in `timeZone` at `at`. */
function calendarDay(at: number, timeZone: string): number {
  const w = wallClock(at, timeZone);
  return Math.round(Date.UTC(w.year, w.month - 1, w.day) / DAY_MS);
}

export type DueState = { state: 'open'; days: number } | { state: 'today' } | { state: 'closed' };

/**
 * Where a deadline stands at `now`: `closed` from its instant on; `today` when it falls later
 * on the same calendar day; else `open` with the calendar days left. Days are counted in the
 * deadline's own zone, so everyone sees the same count whatever their clock's zone, and a day
 * with a DST change still counts as one.
 */
export function dueState(deadline: { at: number; timeZone: string }, now: number): DueState {
  if (now >= deadline.at) return { state: 'closed' };
  const days = calendarDay(deadline.at, deadline.timeZone) - calendarDay(now, deadline.timeZone);
  return days <= 0 ? { state: 'today' } : { state: 'open', days };
}

/**
 * Whether a file arriving at `now` is refused (`closed`), accepted as late, or on time. No
 * deadline: always on time.
 */
export function uploadTiming(
  collection: { deadlineAt: number | null; allowLateUploads: boolean },
  now: number,
): 'onTime' | 'late' | 'closed' {
  if (collection.deadlineAt === null || now < collection.deadlineAt) return 'onTime';
  return collection.allowLateUploads ? 'late' : 'closed';
}

/**
 * The reminder offsets (days before the deadline) due at `now` and not yet past the deadline,
 * smallest first: the first is the one to send, the others are superseded by it.
 */
export function dueReminderOffsets(
  deadlineAt: number,
  offsets: readonly number[],
  now: number,
): number[] {
  if (now >= deadlineAt) return [];
  return [...new Set(offsets)]
    .filter((days) => now >= deadlineAt - days * DAY_MS)
    .sort((a, b) => a - b);
}

/** A local date and time as the deadline form sends it: "2026-12-01T18:00". */
export const localDateTimeSchema = z
  .string({ error: 'invalidDeadline' })
  .refine((v) => parseLocal(v) !== null, { error: 'invalidDeadline' });

export const timeZoneSchema = z
  .string({ error: 'invalidTimeZone' })
  .refine(isTimeZone, { error: 'invalidTimeZone' });

/** What a client sets: the local date and time and the zone it is read in. */
export const deadlineInputSchema = z.object(
  { local: localDateTimeSchema, timeZone: timeZoneSchema },
  { error: 'invalidDeadline' },
);
export type DeadlineInput = z.infer<typeof deadlineInputSchema>;

/** A deadline as the API shows it: the instant, and the local time and zone it was set in. */
export const deadlineSchema = z.object({
  at: z.iso.datetime(),
  local: z.string(),
  timeZone: z.string(),
});
export type Deadline = z.infer<typeof deadlineSchema>;

/** POST …/collections/{collectionId}/reminders answers how many e-mails were queued. */
export const remindResponseSchema = z.object({ sent: z.number().int().nonnegative() });
export type RemindResponse = z.infer<typeof remindResponseSchema>;
