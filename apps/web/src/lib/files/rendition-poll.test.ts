import { describe, expect, it } from 'vitest';
import {
  RENDITION_POLL_FIRST_MS,
  RENDITION_POLL_MAX_MS,
  RENDITION_WAIT_MS,
  renditionPollDelay,
} from './rendition-poll';

const pending = (fileId: string) => ({ fileId, renditionStatus: 'pending' as const });

describe('renditionPollDelay', () => {
  it('does not ask again when no file waits for its thumbnail', () => {
    const seen = new Map<string, number>();
    const files = [
      { fileId: 'a', renditionStatus: 'ready' as const },
      { fileId: 'b', renditionStatus: 'failed' as const },
      { fileId: 'c', renditionStatus: 'none' as const },
    ];
    expect(renditionPollDelay(files, seen, 1_000)).toBe(false);
    expect(renditionPollDelay([], seen, 1_000)).toBe(false);
    expect(seen.size).toBe(0);
  });

  it('asks again soon for a new pending file, then less and less often, up to a bound', () => {
    const seen = new Map<string, number>();
    const start = 1_000_000;
    const delays: number[] = [];
    let now = start;
    while (now - start < RENDITION_WAIT_MS + RENDITION_POLL_MAX_MS) {
      const delay = renditionPollDelay([pending('a')], seen, now);
      if (delay === false) break;
      delays.push(delay);
      now += delay;
    }
    expect(delays[0]).toBe(RENDITION_POLL_FIRST_MS);
    // Each wait at least as long as the one before, never above the longest.
    delays.slice(1).forEach((delay, i) => expect(delay).toBeGreaterThanOrEqual(delays[i] ?? 0));
    expect(Math.max(...delays)).toBe(RENDITION_POLL_MAX_MS);
    // It gives up once the file has been pending for the whole wait: a bounded number of asks.
    expect(now - start).toBeGreaterThanOrEqual(RENDITION_WAIT_MS);
    expect(renditionPollDelay([pending('a')], seen, now)).toBe(false);
    expect(delays.length).toBeLessThan(40);
  });

  it('follows the youngest pending file and forgets files once they are settled', () => {
    const seen = new Map<string, number>();
    expect(renditionPollDelay([pending('old')], seen, 0)).toBe(RENDITION_POLL_FIRST_MS);
    expect(renditionPollDelay([pending('old')], seen, 40_000)).toBe(20_000);
    // A new upload brings the fast rhythm back.
    expect(renditionPollDelay([pending('old'), pending('new')], seen, 41_000)).toBe(
      RENDITION_POLL_FIRST_MS,
    );
    expect(
      renditionPollDelay(
        [pending('old'), { fileId: 'new', renditionStatus: 'ready' }],
        seen,
        43_000,
      ),
    ).toBe(21_500);
    expect([...seen.keys()]).toEqual(['old']);
  });
});
