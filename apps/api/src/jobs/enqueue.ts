import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import { newId } from '../db/ids.js';
import type { JobDefinition } from './define-job.js';
import type { Clock } from './types.js';

export const DEFAULT_MAX_ATTEMPTS = 5;

/** A database handle or an open transaction: enqueue with the write that causes the job. */
export type JobsDb = Kysely<Database> | Transaction<Database>;

export interface EnqueueInput {
  queue: string;
  /** Stored as JSON. */
  payload: unknown;
  /** Epoch ms; defaults to now. */
  runAt?: number;
  maxAttempts?: number;
  /** While a pending or running job holds this key, enqueueing it again returns that job. */
  dedupeKey?: string;
}

/** Adds a job and returns its id (or the id of the unfinished job already holding `dedupeKey`). */
export async function enqueue(db: JobsDb, input: EnqueueInput, clock: Clock): Promise<string> {
  const now = clock();
  const row = {
    id: newId(),
    queue: input.queue,
    payload: JSON.stringify(input.payload ?? null),
    status: 'pending' as const,
    max_attempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    run_at: input.runAt ?? now,
    dedupe_key: input.dedupeKey ?? null,
    created_at: now,
    updated_at: now,
  };
  const { dedupeKey } = input;
  if (dedupeKey === undefined) {
    await db.insertInto('jobs').values(row).execute();
    return row.id;
  }
  // ON CONFLICT DO NOTHING instead of catching a unique violation: on PostgreSQL an error would
  // abort the caller's transaction. The holder can finish between the insert and the select,
  // hence the retry.
  for (let i = 0; i < 3; i++) {
    const inserted = await db
      .insertInto('jobs')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return inserted.id;
    const existing = await db
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', '=', dedupeKey)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
    if (existing) return existing.id;
  }
  throw new Error(`could not enqueue ${input.queue} with dedupe key ${dedupeKey}`);
}

export interface EnqueueJobInput<I> {
  payload: I;
  runAt?: number;
  maxAttempts?: number;
  dedupeKey?: string;
}

/**
 * Typed enqueue for a known definition: the payload is checked against its schema here, inside
 * the caller's transaction, so a bad payload is a failed request rather than a failed job.
 */
export async function enqueueJob<I>(
  db: JobsDb,
  definition: JobDefinition<never, I>,
  input: EnqueueJobInput<I>,
  clock: Clock,
): Promise<string> {
  definition.schema.parse(input.payload);
  return enqueue(
    db,
    {
      queue: definition.queue,
      payload: input.payload,
      runAt: input.runAt,
      maxAttempts: input.maxAttempts ?? definition.maxAttempts,
      dedupeKey: input.dedupeKey,
    },
    clock,
  );
}
