import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time.js';

describe('isoTime', () => {
  it('writes what Date#toISOString writes, for instants from 1970 to 9999', () => {
    const max = 253_402_300_799_999;
    const edges = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      951_782_400_000,
      951_868_799_999,
      946_684_799_999,
      4_107_542_400_000,
      1_798_761_599_999,
      max,
    ];
    for (const ms of edges) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    // Every day of four centuries' leap-year rules, at a random time of day.
    for (let day = 0; day < 4 * 36_525; day += 1) {
      const ms = day * 86_400_000 + Math.floor(Math.random() * 86_400_000);
      if (isoTime(ms) !== new Date(ms).toISOString())
        expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
    for (let i = 0; i < 100_000; i++) {
      const ms = Math.floor(Math.random() * max);
      if (isoTime(ms) !== new Date(ms).toISOString())
        expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('leaves other instants to the builtin', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 1.5])
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
