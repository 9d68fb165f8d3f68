import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A token bucket over bytes read: `take(n)` waits until n more bytes fit under `bytesPerSecond`.
 * The bucket holds at most a second's worth, so a pause (a database write, a slow object) never
 * turns into a burst at full speed afterwards. 0: no bound, nothing ever waits.
 */
export interface ReadRate {
  take(bytes: number, signal?: AbortSignal): Promise<void>;
}

const BURST_MS = 1000;

export function readRate(bytesPerSecond: number): ReadRate {
  if (!(bytesPerSecond > 0)) return { take: () => Promise.resolve() };
  let start = performance.now();
  let taken = 0;
  return {
    async take(bytes, signal) {
      taken += bytes;
      const due = start + (taken / bytesPerSecond) * 1000;
      const wait = due - performance.now();
      if (wait < -BURST_MS) {
        // Idle for a while: keep at most a second of credit.
        start += -wait - BURST_MS;
        return;
      }
      if (wait > 1) await sleep(wait, undefined, signal ? { signal } : {});
    },
  };
}
