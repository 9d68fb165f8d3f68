import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './format-relative-time';

const NOW = Date.UTC(2026, 10, 28, 12, 0);

describe('formatRelativeTime', () => {
  it('says how long ago in the largest whole unit, in the language asked', () => {
    expect(formatRelativeTime(NOW - 5 * 60_000, 'en', NOW)).toBe('5 minutes ago');
    expect(formatRelativeTime(NOW - 5 * 60_000, 'it', NOW)).toBe('5 minuti fa');
    expect(formatRelativeTime(NOW - 3 * 3600_000, 'en', NOW)).toBe('3 hours ago');
    expect(formatRelativeTime(NOW - 26 * 3600_000, 'en', NOW)).toBe('yesterday');
    expect(formatRelativeTime(NOW - 26 * 3600_000, 'it', NOW)).toBe('ieri');
    expect(formatRelativeTime(new Date(NOW - 14 * 86_400_000).toISOString(), 'en', NOW)).toBe(
      '2 weeks ago',
    );
  });

  it('calls under a minute, and a clock slightly behind, now', () => {
    expect(formatRelativeTime(NOW - 20_000, 'en', NOW)).toBe('now');
    expect(formatRelativeTime(NOW + 5_000, 'it', NOW)).toBe('ora');
  });
});
