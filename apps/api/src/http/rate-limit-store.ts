import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Clock } from '../context.js';
import { count } from '../db/rate-limits.js';
import type { Db } from '../db/create-db.js';

/** Keys of request counts, apart from the sign-in and mail counters of the same table. */
const PREFIX = 'request:';

/**
 * Counts one request under `key` and answers the window's count and the milliseconds left, in the
 * same counters as the sign-in and mail limits, so every API process sees one count per address.
 */
export async function countRequest(
  db: Db,
  key: string,
  windowMs: number,
  nowMs: number,
): Promise<{ current: number; ttl: number }> {
  const row = await count(db, key, { windowMs, nowMs });
  if (!row) throw new Error(`rate limit ${key}: the counter was not written`);
  return { current: row.count, ttl: Math.max(0, row.resetAt - nowMs) };
}

/**
 * @fastify/rate-limit's store over the `rate_limits` table (RATE_LIMIT_STORE=database): the
 * per-address request limits hold across every node behind the proxy, as the sign-in lockout
 * already does. A route with limits of its own counts under its method and path. Rows whose
 * window passed are deleted by the purge-rate-limits job.
 */
export function databaseRateLimitStore(db: Db, clock: Clock): FastifyRateLimitStoreCtor {
  class DatabaseStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = PREFIX,
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      countRequest(db, `${this.prefix}${key}`, timeWindow, clock()).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /**
     * A route's own limits. The plugin passes its merged options, whose `routeInfo` is the
     * route's options ({} for `app.rateLimit(…)`), though its types name the route's options.
     */
    child(options: object): FastifyRateLimitStore {
      const { routeInfo } = options as {
        routeInfo?: { method?: string | string[]; url?: string };
      };
      const { method = '', url = '' } = routeInfo ?? {};
      const methods = Array.isArray(method) ? method.join(',') : method;
      return new DatabaseStore(null, `${this.prefix}${methods} ${url}:`);
    }
  }
  return DatabaseStore;
}
