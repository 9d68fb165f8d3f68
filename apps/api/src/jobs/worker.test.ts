import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../db/create-db.js';
import { openTestDb, testDbKind, type TestDatabase } from '../../test/helpers/test-db.js';
import { defineJob, PermanentJobError, type JobDefinition } from './define-job.js';
import { enqueue, enqueueJob } from './enqueue.js';
import { purgeJobsJob } from './purge-jobs.job.js';
import { sleep, waitForDisconnect, waitUntil } from './test-utils.fixture.js';
import type { JobRow } from './types.js';
import { createWorker, scheduleDedupeKey, type Worker, type WorkerOptions } from './worker.js';

describe('worker', () => {
  let db: Db;
  let database: TestDatabase;
  let close: () => Promise<void>;
  const workers: Worker[] = [];

  beforeEach(async () => {
    ({ db, database, close } = await openTestDb());
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop({ timeoutMs: 1000 })));
    await db.destroy();
    await waitForDisconnect(database.config);
    await close();
  });

  function startWorker<D>(
    jobs: readonly JobDefinition<D>[],
    deps: D,
    options: Partial<WorkerOptions<D>> = {},
    configure?: (w: Worker) => void,
  ): Promise<Worker> {
    const worker = createWorker({
      db,
      dbKind: testDbKind(),
      jobs,
      deps,
      concurrency: 2,
      leaseMs: 5000,
      pollMs: 10,
      logger: pino({ level: 'silent' }),
      clock: Date.now,
      ...options,
    });
    workers.push(worker);
    configure?.(worker);
    return worker.start().then(() => worker);
  }

  const getJob = (id: string): Promise<JobRow> =>
    db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const waitForStatus = (id: string, status: JobRow['status']) =>
    waitUntil(async () => (await getJob(id)).status === status, `job ${id} to be ${status}`);

  it('runs a job with its parsed payload and marks it succeeded', async () => {
    const seen: unknown[] = [];
    const job = defineJob({
      queue: 'test.echo',
      schema: z.object({ word: z.string(), times: z.number().default(2) }),
      handler: (_deps: unknown, payload, run) => {
        seen.push({ payload, attempt: run.attempt });
        return Promise.resolve();
      },
    });
    const id = await enqueueJob(db, job, { payload: { word: 'ciao' } }, Date.now);
    await startWorker([job], {});
    await waitForStatus(id, 'succeeded');
    expect(seen).toEqual([{ payload: { word: 'ciao', times: 2 }, attempt: 1 }]);
    const row = await getJob(id);
    expect(row.attempts).toBe(1);
    expect(row.finished_at).toEqual(expect.any(Number));
    expect(row.locked_until).toBeNull();
  });

  it('retries with back-off, then fails for good keeping the last error', async () => {
    const starts: number[] = [];
    const job = defineJob({
      queue: 'test.flaky',
      schema: z.object({}),
      backoff: (attempt) => attempt * 100,
      handler: (_deps: unknown, _payload, run) => {
        starts.push(performance.now());
        return Promise.reject(new Error(`boom ${run.attempt}`));
      },
    });
    const id = await enqueueJob(db, job, { payload: {}, maxAttempts: 3 }, Date.now);
    await startWorker([job], {});

    await waitUntil(
      async () => (await getJob(id)).attempts === 1 && starts.length === 1,
      'first failure',
    );
    await waitUntil(
      async () => (await getJob(id)).status === 'pending',
      'the retry to be scheduled',
    );
    const between = await getJob(id);
    expect(between.last_error).toBe('Error: boom 1');
    expect(between.locked_by).toBeNull();

    await waitForStatus(id, 'failed');
    const row = await getJob(id);
    expect(row).toMatchObject({ attempts: 3, last_error: 'Error: boom 3', locked_until: null });
    expect(row.finished_at).toEqual(expect.any(Number));
    expect(starts).toHaveLength(3);
    const [first = 0, second = 0, third = 0] = starts;
    // Timers may fire a millisecond early; the back-off is 100 ms then 200 ms.
    expect(second - first).toBeGreaterThanOrEqual(95);
    expect(third - second).toBeGreaterThanOrEqual(195);
  });

  it('fails at once on a payload its schema rejects, on an unknown queue and on a permanent error', async () => {
    let ran = 0;
    const strict = defineJob({
      queue: 'test.strict',
      schema: z.object({ count: z.number().int() }),
      handler: () => {
        ran++;
        return Promise.resolve();
      },
    });
    const hopeless = defineJob({
      queue: 'test.hopeless',
      schema: z.object({}),
      handler: () => Promise.reject(new PermanentJobError('the file is gone')),
    });
    const bad = await enqueue(db, { queue: 'test.strict', payload: { count: 'three' } }, Date.now);
    const unknown = await enqueue(db, { queue: 'test.nobody', payload: {} }, Date.now);
    const permanent = await enqueue(db, { queue: 'test.hopeless', payload: {} }, Date.now);
    await startWorker([strict, hopeless], {});

    for (const id of [bad, unknown, permanent]) await waitForStatus(id, 'failed');
    expect(ran).toBe(0);
    const badRow = await getJob(bad);
    expect(badRow.attempts).toBe(1);
    expect(badRow.last_error).toMatch(/^invalid payload: /);
    expect(await getJob(unknown)).toMatchObject({
      attempts: 1,
      last_error: 'unknown queue test.nobody',
    });
    expect(await getJob(permanent)).toMatchObject({
      attempts: 1,
      last_error: 'PermanentJobError: the file is gone',
    });
  });

  it('keeps exactly one unfinished instance of a scheduled job while running it again and again', async () => {
    let runs = 0;
    const tick = defineJob({
      queue: 'test.tick',
      schema: z.object({ label: z.string() }),
      handler: async () => {
        runs++;
        await sleep(5);
      },
    });
    const schedule = { queue: 'test.tick', everyMs: 40, payload: { label: 'x' } };
    // Two workers with the same schedule, as with several worker processes.
    await startWorker([tick], {}, {}, (w) => w.schedule(schedule));
    await startWorker([tick], {}, {}, (w) => w.schedule(schedule));

    const unfinished = async () =>
      (
        await db
          .selectFrom('jobs')
          .select('id')
          .where('dedupe_key', '=', scheduleDedupeKey('test.tick'))
          .where('status', 'in', ['pending', 'running'])
          .execute()
      ).length;
    let most = 0;
    await waitUntil(async () => {
      most = Math.max(most, await unfinished());
      return runs >= 5;
    }, 'five scheduled runs');
    await Promise.all(workers.splice(0).map((w) => w.stop({ timeoutMs: 1000 })));

    expect(most).toBe(1);
    expect(await unfinished()).toBe(1);
    const done = await db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', 'test.tick')
      .where('status', '=', 'succeeded')
      .orderBy('run_at')
      .execute();
    expect(done).toHaveLength(runs);
    for (let i = 1; i < done.length; i++) {
      const gap = (done[i]?.run_at ?? 0) - (done[i - 1]?.finished_at ?? 0);
      expect(gap).toBeGreaterThanOrEqual(schedule.everyMs);
    }
    expect(JSON.parse(done[0]?.payload ?? '')).toEqual({ label: 'x' });
  });

  it('stop() waits for a running handler to finish', async () => {
    let started = false;
    let finished = false;
    const slow = defineJob({
      queue: 'test.slow',
      schema: z.object({}),
      handler: async () => {
        started = true;
        await sleep(300);
        finished = true;
      },
    });
    const id = await enqueueJob(db, slow, { payload: {} }, Date.now);
    const worker = await startWorker([slow], {});
    await waitUntil(() => started, 'the handler to start');
    // A second stop (a second SIGTERM) waits for the same shutdown.
    await Promise.all([worker.stop({ timeoutMs: 5000 }), worker.stop({ timeoutMs: 5000 })]);
    expect(finished).toBe(true);
    expect((await getJob(id)).status).toBe('succeeded');
  });

  it('stop() hands back, uncounted, a job that does not finish in time, and aborts its handler', async () => {
    let signal: AbortSignal | undefined;
    const stuck = defineJob({
      queue: 'test.stuck',
      schema: z.object({}),
      handler: (deps: { finish: boolean }, _payload, run) => {
        signal = run.signal;
        if (deps.finish) return Promise.resolve();
        return new Promise<void>((_resolve, reject) => {
          run.signal.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
    });
    const id = await enqueueJob(db, stuck, { payload: {} }, Date.now);
    const worker = await startWorker([stuck], { finish: false });
    await waitUntil(() => signal !== undefined, 'the handler to start');
    await worker.stop({ timeoutMs: 100 });
    expect(signal?.aborted).toBe(true);
    await sleep(50); // the aborted handler's late failure must change nothing
    expect(await getJob(id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      locked_by: null,
      locked_until: null,
      last_error: null,
    });

    await startWorker([stuck], { finish: true });
    await waitForStatus(id, 'succeeded');
    expect((await getJob(id)).attempts).toBe(1);
  });

  it('purges finished jobs older than the given days and keeps the rest', async () => {
    const now = Date.now();
    const day = 24 * 60 * 60_000;
    const make = async (status: JobRow['status'], ageDays: number) => {
      const at = now - ageDays * day;
      const id = await enqueue(db, { queue: 'test.old', payload: {}, runAt: at }, () => at);
      const finished = status === 'succeeded' || status === 'failed' ? at : null;
      await db
        .updateTable('jobs')
        .set({ status, finished_at: finished })
        .where('id', '=', id)
        .execute();
      return id;
    };
    const oldSucceeded = await make('succeeded', 40);
    const oldFailed = await make('failed', 31);
    const recent = await make('succeeded', 2);
    // Pending far in the past: a stuck job is not history and must stay visible.
    const oldPending = await make('pending', 60);
    await db
      .updateTable('jobs')
      .set({ run_at: now + day })
      .where('id', '=', oldPending)
      .execute();

    const purge = await enqueueJob(db, purgeJobsJob, { payload: { olderThanDays: 30 } }, Date.now);
    await startWorker([purgeJobsJob], { db, clock: Date.now });
    await waitForStatus(purge, 'succeeded');
    const left = (await db.selectFrom('jobs').select('id').execute()).map((r) => r.id);
    expect(left).not.toContain(oldSucceeded);
    expect(left).not.toContain(oldFailed);
    expect(left).toEqual(expect.arrayContaining([recent, oldPending, purge]));
  });
});
