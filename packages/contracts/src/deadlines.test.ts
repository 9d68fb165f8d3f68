import { describe, expect, it } from 'vitest';
import {
  deadlineInputSchema,
  deadlineInstant,
  dueReminderOffsets,
  dueState,
  localDeadline,
  uploadTiming,
} from './deadlines.js';

const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

describe('deadlineInstant', () => {
  it('reads the local time in its zone', () => {
    // Rome is UTC+1 in winter, UTC+2 in summer.
    expect(deadlineInstant('2026-12-01T18:00', 'Europe/Rome')).toBe(Date.UTC(2026, 11, 1, 17));
    expect(deadlineInstant('2026-07-01T18:00', 'Europe/Rome')).toBe(Date.UTC(2026, 6, 1, 16));
    expect(deadlineInstant('2026-07-01T18:00', 'UTC')).toBe(Date.UTC(2026, 6, 1, 18));
    expect(deadlineInstant('2026-07-01T18:00', 'America/New_York')).toBe(Date.UTC(2026, 6, 1, 22));
  });

  it('moves a time the clocks skip forward by the gap, and takes the first of a repeated one', () => {
    // 29 March 2026, Rome: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist.
    expect(deadlineInstant('2026-03-29T02:30', 'Europe/Rome')).toBe(Date.UTC(2026, 2, 29, 1, 30));
    expect(localDeadline(Date.UTC(2026, 2, 29, 1, 30), 'Europe/Rome')).toBe('2026-03-29T03:30');
    // 25 October 2026, Rome: 03:00 CEST goes back to 02:00 CET; 02:30 happens twice.
    expect(deadlineInstant('2026-10-25T02:30', 'Europe/Rome')).toBe(Date.UTC(2026, 9, 25, 0, 30));
    expect(deadlineInstant('2026-10-25T03:30', 'Europe/Rome')).toBe(Date.UTC(2026, 9, 25, 2, 30));
  });

  it('refuses what is not a date, a time or a zone', () => {
    expect(deadlineInstant('2026-02-30T10:00', 'UTC')).toBeNull();
    expect(deadlineInstant('2026-02-10T24:00', 'UTC')).toBeNull();
    expect(deadlineInstant('2026-02-10', 'UTC')).toBeNull();
    expect(deadlineInstant('2026-02-10T10:00', 'Mars/Olympus')).toBeNull();
    expect(
      deadlineInputSchema.safeParse({ local: '2026-02-10T10:00', timeZone: 'Nowhere' }).error
        ?.issues[0]?.message,
    ).toBe('invalidTimeZone');
    expect(
      deadlineInputSchema.safeParse({ local: '10/02/2026', timeZone: 'UTC' }).error?.issues[0]
        ?.message,
    ).toBe('invalidDeadline');
  });

  it('round-trips through localDeadline', () => {
    for (const zone of ['Europe/Rome', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Auckland']) {
      const at = deadlineInstant('2026-11-15T09:45', zone);
      expect(at).not.toBeNull();
      expect(localDeadline(at ?? 0, zone)).toBe('2026-11-15T09:45');
    }
  });
});

describe('dueState', () => {
  const rome = {
    at: deadlineInstant('2026-12-04T18:00', 'Europe/Rome') ?? 0,
    timeZone: 'Europe/Rome',
  };

  it('counts calendar days in the deadline’s zone', () => {
    // 1 December, 23:30 in Rome (22:30 UTC): three days to go.
    expect(dueState(rome, Date.UTC(2026, 11, 1, 22, 30))).toEqual({ state: 'open', days: 3 });
    // 23:30 UTC on 1 December is already 2 December in Rome.
    expect(dueState(rome, Date.UTC(2026, 11, 1, 23, 30))).toEqual({ state: 'open', days: 2 });
    expect(dueState(rome, Date.UTC(2026, 11, 3, 23, 0))).toEqual({ state: 'today' });
    expect(dueState(rome, rome.at - 1)).toEqual({ state: 'today' });
  });

  it('is closed from the deadline on', () => {
    expect(dueState(rome, rome.at)).toEqual({ state: 'closed' });
    expect(dueState(rome, rome.at + DAY)).toEqual({ state: 'closed' });
  });

  it('counts a day with a DST change as one day', () => {
    // Rome moves to summer time on 29 March 2026: 23 hours that day.
    const spring = {
      at: deadlineInstant('2026-03-30T09:00', 'Europe/Rome') ?? 0,
      timeZone: 'Europe/Rome',
    };
    expect(dueState(spring, deadlineInstant('2026-03-28T09:00', 'Europe/Rome') ?? 0)).toEqual({
      state: 'open',
      days: 2,
    });
    expect(dueState(spring, deadlineInstant('2026-03-29T23:59', 'Europe/Rome') ?? 0)).toEqual({
      state: 'open',
      days: 1,
    });
  });
});

describe('uploadTiming', () => {
  it('refuses after the deadline unless late uploads are allowed', () => {
    const at = 1_000;
    expect(uploadTiming({ deadlineAt: null, allowLateUploads: false }, 5_000)).toBe('onTime');
    expect(uploadTiming({ deadlineAt: at, allowLateUploads: false }, 999)).toBe('onTime');
    expect(uploadTiming({ deadlineAt: at, allowLateUploads: false }, 1_000)).toBe('closed');
    expect(uploadTiming({ deadlineAt: at, allowLateUploads: true }, 1_000)).toBe('late');
  });
});

describe('dueReminderOffsets', () => {
  it('lists the offsets whose time has come, nearest first, none after the deadline', () => {
    const at = 10 * DAY;
    expect(dueReminderOffsets(at, [3, 1], 6 * DAY)).toEqual([]);
    expect(dueReminderOffsets(at, [3, 1], 7 * DAY)).toEqual([3]);
    expect(dueReminderOffsets(at, [3, 1], 9 * DAY + HOUR)).toEqual([1, 3]);
    expect(dueReminderOffsets(at, [3, 1, 1], 9 * DAY + HOUR)).toEqual([1, 3]);
    expect(dueReminderOffsets(at, [3, 1], at)).toEqual([]);
  });
});
