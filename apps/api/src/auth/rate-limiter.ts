import { sql } from 'kysely';
import type { Db } from '../db/create-db.js';

/**
 * Counters in the database, so every API process sees the same counts (per account, per client
 * address). One upsert per hit; a window restarts when it has passed.
 */
export async function hit(db: Db, key: string, windowMs: number, nowMs: number): Promise<number> {
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
    .returning('count')
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The count within the current window, without counting a hit. */
export async function peek(db: Db, key: string, nowMs: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('count')
    .where('key', '=', key)
    .where('reset_at', '>', nowMs)
    .executeTakeFirst();
  return row ? row.count : 0;
}

export async function clear(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Drops windows that have passed. */
export async function purgeExpired(db: Db, nowMs: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('reset_at', '<=', nowMs).execute();
}
