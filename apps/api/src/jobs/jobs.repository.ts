import type { Db, DbKind } from '../db/create-db.js';
import type { JobsDb } from './enqueue.js';
import type { JobRow } from './types.js';

const MAX_ERROR_LENGTH = 4000;

export interface ClaimOptions {
  /** The claim token written to `locked_by`; every later update of these rows is guarded by it. */
  lockedBy: string;
  limit: number;
  now: number;
  leaseMs: number;
  /** Jobs the claiming worker is still running: after a stall past its own lease it must not start them twice. */
  excludeIds?: readonly string[];
}

/**
 * Takes up to `limit` due jobs, oldest first: pending ones whose time has come and running ones
 * whose lease expired (their worker died). Each claim counts as an attempt.
 *
 * One statement on both databases. On PostgreSQL, FOR UPDATE SKIP LOCKED lets concurrent
 * claimers pass each other's rows instead of queueing behind them. On SQLite the UPDATE takes the
 * database's single write lock before it reads its subquery, so it is exclusive by itself; an
 * explicit BEGIN … COMMIT around it would only hold that lock across an await, and another
 * connection in the same process (both SQLite drivers wait for a busy lock synchronously) would
 * then block the thread that has to commit.
 */
export async function claimJobs(db: Db, kind: DbKind, opts: ClaimOptions): Promise<JobRow[]> {
  const { lockedBy, limit, now, leaseMs, excludeIds = [] } = opts;
  const rows = await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      locked_by: lockedBy,
      locked_until: now + leaseMs,
      attempts: eb('attempts', '+', 1),
      updated_at: now,
    }))
    .where('id', 'in', (eb) => {
      let due = eb
        .selectFrom('jobs')
        .select('id')
        .where((w) =>
          w.or([
            w.and([w('status', '=', 'pending'), w('run_at', '<=', now)]),
            w.and([w('status', '=', 'running'), w('locked_until', '<', now)]),
          ]),
        )
        .orderBy('run_at')
        .orderBy('id')
        .limit(limit);
      if (excludeIds.length > 0) due = due.where('id', 'not in', excludeIds);
      return kind === 'postgres' ? due.forUpdate().skipLocked() : due;
    })
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.run_at - b.run_at || (a.id < b.id ? -1 : 1));
}

function ownedBy(q: JobsDb, id: string, lockedBy: string) {
  return q
    .updateTable('jobs')
    .where('id', '=', id)
    .where('locked_by', '=', lockedBy)
    .where('status', '=', 'running');
}

async function changed(result: Promise<{ numUpdatedRows: bigint }>): Promise<boolean> {
  return (await result).numUpdatedRows > 0n;
}

/** Extends the lease; false when the job is no longer ours. */
export function renewLease(
  db: JobsDb,
  id: string,
  lockedBy: string,
  lockedUntil: number,
  now: number,
): Promise<boolean> {
  return changed(
    ownedBy(db, id, lockedBy)
      .set({ locked_until: lockedUntil, updated_at: now })
      .executeTakeFirstOrThrow(),
  );
}

/** Ends a run for good: `succeeded`, or `failed` with its last error. Only the lease holder may. */
export function markFinished(
  db: JobsDb,
  id: string,
  lockedBy: string,
  now: number,
  outcome: { status: 'succeeded'; error?: undefined } | { status: 'failed'; error: string },
): Promise<boolean> {
  return changed(
    ownedBy(db, id, lockedBy)
      .set({
        status: outcome.status,
        locked_until: null,
        finished_at: now,
        updated_at: now,
        last_error: outcome.error === undefined ? null : outcome.error.slice(0, MAX_ERROR_LENGTH),
      })
      .executeTakeFirstOrThrow(),
  );
}

export function markForRetry(
  db: JobsDb,
  id: string,
  lockedBy: string,
  now: number,
  runAt: number,
  error: string,
): Promise<boolean> {
  return changed(
    ownedBy(db, id, lockedBy)
      .set({
        status: 'pending',
        locked_by: null,
        locked_until: null,
        run_at: runAt,
        updated_at: now,
        last_error: error.slice(0, MAX_ERROR_LENGTH),
      })
      .executeTakeFirstOrThrow(),
  );
}

/** Gives an unfinished run back without counting it: the job was interrupted, not failed. */
export function releaseLease(
  db: JobsDb,
  id: string,
  lockedBy: string,
  now: number,
): Promise<boolean> {
  return changed(
    ownedBy(db, id, lockedBy)
      .set((eb) => ({
        status: 'pending',
        locked_by: null,
        locked_until: null,
        attempts: eb('attempts', '-', 1),
        updated_at: now,
      }))
      .executeTakeFirstOrThrow(),
  );
}

const PURGE_BATCH = 500;

/**
 * Deletes succeeded and failed jobs that finished before `before`, in batches so SQLite's single
 * write lock is never held for long. `run_at <= finished_at` always, so the extra `run_at` bound
 * lets the (status, run_at) index find the rows.
 */
export async function purgeFinishedJobs(db: Db, before: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .deleteFrom('jobs')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('jobs')
          .select('id')
          .where('status', 'in', ['succeeded', 'failed'])
          .where('run_at', '<', before)
          .where('finished_at', '<', before)
          .limit(PURGE_BATCH),
      )
      .executeTakeFirstOrThrow();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}
