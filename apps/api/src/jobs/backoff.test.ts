import { describe, expect, it } from 'vitest';
import { defaultBackoff, exponentialBackoff } from './backoff.js';

describe('exponentialBackoff', () => {
  it('doubles from the base and stops at the cap', () => {
    const noJitter = exponentialBackoff({ baseMs: 1000, maxMs: 10_000, jitter: 0 });
    expect([1, 2, 3, 4, 5, 10].map(noJitter)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('spreads delays by the jitter and never passes the cap', () => {
    const low = exponentialBackoff({ baseMs: 1000, maxMs: 5000, jitter: 0.25 }, () => 0);
    const high = exponentialBackoff({ baseMs: 1000, maxMs: 5000, jitter: 0.25 }, () => 0.999_999);
    expect(low(1)).toBe(750);
    expect(high(1)).toBe(1250);
    expect(high(20)).toBe(5000);
  });

  it('starts around one second by default', () => {
    for (let i = 0; i < 50; i++) {
      const first = defaultBackoff(1);
      expect(first).toBeGreaterThanOrEqual(750);
      expect(first).toBeLessThanOrEqual(1250);
    }
    expect(defaultBackoff(100)).toBeLessThanOrEqual(60 * 60_000);
  });
});
