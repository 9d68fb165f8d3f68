import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Clock } from '../context.js';
import type { Db } from '../db/create-db.js';

/** Keys of request counts, apart from the sign-in and mail counters of the same table. */
const PREFIX = 'request:';

/**
 * Counts one request under `key` and answers the window's count and the milliseconds left. One
 * upsert that reads and increments together, so every API process sees one count per address.
 */
export async function countRequest(
  db: Db,
  key: string,
  windowMs: number,
  nowMs: number,
): Promise<{ current: number; ttl: number }> {
  const resetAt = nowMs + windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: resetAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= ${nowMs} then 1 else rate_limits.count + 1 end`,
        reset_at: sql<number>`case when rate_limits.reset_at <= ${nowMs} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(['count', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { current: row.count, ttl: Math.max(0, row.reset_at - nowMs) };
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
