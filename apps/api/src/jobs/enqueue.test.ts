import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../db/create-db.js';
import { openTestDb } from '../../test/helpers/test-db.js';
import { defineJob } from './define-job.js';
import { DEFAULT_MAX_ATTEMPTS, enqueue, enqueueJob } from './enqueue.js';

const clock = () => 1_700_000_000_000;

describe('enqueue', () => {
  let db: Db;
  let close: () => Promise<void>;

  beforeEach(async () => {
    ({ db, close } = await openTestDb());
  });
  afterEach(async () => {
    await close();
  });

  const countJobs = async () =>
    Number(
      (
        await db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('stores a pending job due now with the default attempts', async () => {
    const id = await enqueue(db, { queue: 'q.test', payload: { a: 1 } }, clock);
    const row = await db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      queue: 'q.test',
      status: 'pending',
      attempts: 0,
      max_attempts: DEFAULT_MAX_ATTEMPTS,
      run_at: clock(),
      created_at: clock(),
      locked_by: null,
      dedupe_key: null,
    });
    expect(JSON.parse(row.payload)).toEqual({ a: 1 });
  });

  it('adds no job when the transaction that enqueued it rolls back', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueue(trx, { queue: 'q.test', payload: {} }, clock);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await countJobs()).toBe(0);

    await db.transaction().execute(async (trx) => {
      await enqueue(trx, { queue: 'q.test', payload: {} }, clock);
    });
    expect(await countJobs()).toBe(1);
  });

  it('returns the unfinished job holding a dedupe key instead of adding another', async () => {
    const first = await enqueue(db, { queue: 'q.test', payload: { n: 1 }, dedupeKey: 'k' }, clock);
    const again = await db
      .transaction()
      .execute((trx) =>
        enqueue(trx, { queue: 'q.test', payload: { n: 2 }, dedupeKey: 'k' }, clock),
      );
    expect(again).toBe(first);
    expect(await countJobs()).toBe(1);

    await db.updateTable('jobs').set({ status: 'running' }).where('id', '=', first).execute();
    expect(await enqueue(db, { queue: 'q.test', payload: {}, dedupeKey: 'k' }, clock)).toBe(first);

    // Once finished, the key is free again.
    await db
      .updateTable('jobs')
      .set({ status: 'succeeded', finished_at: clock() })
      .where('id', '=', first)
      .execute();
    const next = await enqueue(db, { queue: 'q.test', payload: {}, dedupeKey: 'k' }, clock);
    expect(next).not.toBe(first);
    expect(await countJobs()).toBe(2);
  });

  it('enqueueJob checks the payload against the definition and uses its attempts', async () => {
    const job = defineJob({
      queue: 'q.typed',
      schema: z.object({ userId: z.string().min(1) }),
      maxAttempts: 9,
      handler: () => Promise.resolve(),
    });
    const id = await enqueueJob(
      db,
      job,
      { payload: { userId: 'u1' }, runAt: clock() + 500 },
      clock,
    );
    const row = await db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ queue: 'q.typed', max_attempts: 9, run_at: clock() + 500 });

    await expect(enqueueJob(db, job, { payload: { userId: '' } }, clock)).rejects.toThrow();
    expect(await countJobs()).toBe(1);
  });
});
