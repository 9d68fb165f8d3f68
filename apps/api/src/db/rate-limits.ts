import { sql } from 'kysely';
import type { Db } from './create-db.js';

/**
 * Counters in the database, so every API process sees the same counts (per account, per client
 * address). A window restarts when it has passed.
 */

/**
 * Counts one attempt under `key`: the window's count and its end, or undefined when `limit` is
 * given and that many attempts are counted already (then nothing is counted). One upsert that
 * reads and increments together (the conflicting row is locked on PostgreSQL; SQLite runs one
 * writer at a time), so parallel callers can never all see room: at most `limit` of any burst
 * are counted. The per-address request limits (http/rate-limit-store.ts) count without a limit.
 */
export async function count(
  db: Db,
  key: string,
  window: { windowMs: number; nowMs: number; limit?: number },
): Promise<{ count: number; resetAt: number } | undefined> {
  const { windowMs, nowMs, limit } = window;
  const resetAt = nowMs + windowMs;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: resetAt })
    .onConflict((oc) => {
      const update = oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= ${nowMs} then 1 else rate_limits.count + 1 end`,
        reset_at: sql<number>`case when rate_limits.reset_at <= ${nowMs} then ${resetAt} else rate_limits.reset_at end`,
      });
      return limit === undefined
        ? update
        : update.where(
            sql<boolean>`rate_limits.reset_at <= ${nowMs} or rate_limits.count < ${limit}`,
          );
    })
    .returning(['count', 'reset_at'])
    .executeTakeFirst();
  return row && { count: row.count, resetAt: row.reset_at };
}

/**
 * Counts one attempt if the window still has room for it: true when counted, false when `limit`
 * attempts are already counted.
 */
export async function reserve(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  nowMs: number,
): Promise<boolean> {
  return (await count(db, key, { windowMs, nowMs, limit })) !== undefined;
}

/** Gives back one attempt counted by `reserve` (it did not turn out to be a failure). */
export async function release(db: Db, key: string, nowMs: number): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set((eb) => ({ count: eb('count', '-', 1) }))
    .where('key', '=', key)
    .where('count', '>', 0)
    .where('reset_at', '>', nowMs)
    .execute();
}

export async function clear(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Drops windows that have passed. */
export async function purgeExpired(db: Db, nowMs: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', nowMs).execute();
}
