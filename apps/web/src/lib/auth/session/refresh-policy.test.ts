import { describe, expect, it } from 'vitest';
import {
  MIN_PROACTIVE_INTERVAL_MS,
  proactiveRefreshDelay,
  refreshNeed,
  satisfies,
} from './refresh-policy';

const NOW = 1_750_000_000_000;
const MINUTE = 60_000;

describe('refresh policy', () => {
  it('requires a refresh under 5 minutes and suggests one under 15', () => {
    expect(refreshNeed(NOW + 60 * MINUTE, NOW)).toBe('none');
    expect(refreshNeed(NOW + 15 * MINUTE, NOW)).toBe('none');
    expect(refreshNeed(NOW + 15 * MINUTE - 1, NOW)).toBe('proactive');
    expect(refreshNeed(NOW + 5 * MINUTE, NOW)).toBe('proactive');
    expect(refreshNeed(NOW + 5 * MINUTE - 1, NOW)).toBe('required');
    expect(refreshNeed(NOW - MINUTE, NOW)).toBe('required');
  });

  it('knows when tokens another tab stored are fresh enough', () => {
    expect(satisfies(NOW + 10 * MINUTE, NOW, 'required')).toBe(true);
    expect(satisfies(NOW + 10 * MINUTE, NOW, 'proactive')).toBe(false);
    expect(satisfies(NOW + 20 * MINUTE, NOW, 'proactive')).toBe(true);
    expect(satisfies(NOW + 4 * MINUTE, NOW, 'required')).toBe(false);
  });

  it('schedules the background refresh 15 minutes before expiry', () => {
    expect(proactiveRefreshDelay(NOW + 60 * MINUTE, NOW, null)).toBe(45 * MINUTE + 1);
    expect(proactiveRefreshDelay(NOW + 10 * MINUTE, NOW, null)).toBe(0);
  });

  it('never loops on short-lived tokens and never overflows setTimeout', () => {
    expect(proactiveRefreshDelay(NOW + 10 * MINUTE, NOW, NOW)).toBe(MIN_PROACTIVE_INTERVAL_MS);
    expect(proactiveRefreshDelay(NOW + 365 * 24 * 60 * MINUTE, NOW, null)).toBe(2 ** 31 - 1);
  });
});
