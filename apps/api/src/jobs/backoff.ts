import type { Backoff } from './types.js';

export interface ExponentialBackoffOptions {
  /** Delay after the first failure. */
  baseMs?: number;
  factor?: number;
  maxMs?: number;
  /** ±fraction of randomness, so jobs that failed together (an outage) do not retry together. */
  jitter?: number;
}

export function exponentialBackoff(
  { baseMs = 1000, factor = 2, maxMs = 60 * 60_000, jitter = 0.25 }: ExponentialBackoffOptions = {},
  random: () => number = Math.random,
): Backoff {
  return (attempt) => {
    const delay = Math.min(maxMs, baseMs * factor ** Math.max(0, attempt - 1));
    return Math.round(Math.min(maxMs, delay * (1 - jitter + 2 * jitter * random())));
  };
}

export const defaultBackoff: Backoff = exponentialBackoff();
