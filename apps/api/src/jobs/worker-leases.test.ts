import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDb, type Db } from '../db/create-db.js';
import { openTestDb, testDbKind, type TestDatabase } from '../../test/helpers/test-db.js';
import { defineJob, type JobDefinition } from './define-job.js';
import { enqueue } from './enqueue.js';
import { deferred, sleep, waitForDisconnect, waitUntil } from './test-utils.fixture.js';
import type { Clock, JobRow } from './types.js';
import { createWorker, type Worker } from './worker.js';

const API_DIR = path.resolve(import.meta.dirname, '../..');
const FIXTURE = path.join(import.meta.dirname, 'worker.fixture.ts');

describe('worker leases', () => {
  let db: Db;
  let database: TestDatabase;
  let close: () => Promise<void>;
  const workers: Worker[] = [];
  const extraDbs: Db[] = [];
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    ({ db, database, close } = await openTestDb());
  });
  afterEach(async () => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    await Promise.all(workers.splice(0).map((w) => w.stop({ timeoutMs: 1000 })));
    await Promise.all([...extraDbs.splice(0), db].map((d) => d.destroy()));
    await waitForDisconnect(database.config);
    await close();
  });

  /** A second connection pool on the same database, as another process would have. */
  function otherDb(): Db {
    const other = createDb(database.config);
    extraDbs.push(other);
    return other;
  }

  async function startWorker<D>(opts: {
    db?: Db;
    jobs: readonly JobDefinition<D>[];
    deps: D;
    concurrency?: number;
    leaseMs?: number;
    clock?: Clock;
    workerId?: string;
  }): Promise<Worker> {
    const worker = createWorker({
      db: opts.db ?? db,
      dbKind: testDbKind(),
      jobs: opts.jobs,
      deps: opts.deps,
      concurrency: opts.concurrency ?? 1,
      leaseMs: opts.leaseMs ?? 5000,
      pollMs: 10,
      logger: pino({ level: 'silent' }),
      clock: opts.clock ?? Date.now,
      workerId: opts.workerId,
    });
    workers.push(worker);
    await worker.start();
    return worker;
  }

  const getJob = (id: string): Promise<JobRow> =>
    db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('runs again a job whose worker process was killed mid-run, once its lease expires', async () => {
    const queue = 'test.crash';
    const id = await enqueue(db, { queue, payload: {} }, Date.now);
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      cwd: API_DIR,
      env: {
        ...process.env,
        FIXTURE_DB: JSON.stringify(database.config),
        FIXTURE_QUEUE: queue,
        FIXTURE_LEASE_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    await waitUntil(
      () => {
        if (child.exitCode !== null) throw new Error(`worker process exited early: ${stderr}`);
        return stdout.includes(`started ${id} 1`);
      },
      'the child worker to start the job',
      20_000,
    );

    // Let the child renew its lease at least once, so the takeover below is not just the first lease.
    await sleep(500);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const orphan = await getJob(id);
    expect(orphan).toMatchObject({ status: 'running', attempts: 1 });
    expect(orphan.locked_by).toMatch(/^fixture#/);
    const leaseEnd = orphan.locked_until ?? 0;

    const runs: { attempt: number; at: number }[] = [];
    const finish = defineJob({
      queue,
      schema: z.unknown(),
      handler: (_deps: unknown, _payload, run) => {
        runs.push({ attempt: run.attempt, at: Date.now() });
        return Promise.resolve();
      },
    });
    await startWorker({ jobs: [finish], deps: {}, leaseMs: 300 });
    await waitUntil(
      async () => (await getJob(id)).status === 'succeeded',
      'the orphaned job to complete',
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]?.attempt).toBe(2);
    expect(runs[0]?.at).toBeGreaterThanOrEqual(leaseEnd);
    expect((await getJob(id)).attempts).toBe(2);
  });

  it('never runs one job on two workers at once', async () => {
    const runs = new Map<string, { worker: string; start: number; end: number }[]>();
    const job = defineJob({
      queue: 'test.shared',
      schema: z.object({ n: z.number() }),
      handler: async (deps: { name: string }, _payload, run) => {
        const record = {
          worker: deps.name,
          start: performance.now(),
          end: Number.POSITIVE_INFINITY,
        };
        runs.set(run.id, [...(runs.get(run.id) ?? []), record]);
        await sleep(2 + Math.random() * 15);
        record.end = performance.now();
      },
    });
    const ids = await db.transaction().execute(async (trx) => {
      const out: string[] = [];
      for (let n = 0; n < 60; n++)
        out.push(await enqueue(trx, { queue: job.queue, payload: { n } }, Date.now));
      return out;
    });
    await Promise.all([
      startWorker({ jobs: [job], deps: { name: 'a' }, concurrency: 4, leaseMs: 1000 }),
      startWorker({
        db: otherDb(),
        jobs: [job],
        deps: { name: 'b' },
        concurrency: 4,
        leaseMs: 1000,
      }),
    ]);
    const succeeded = async () =>
      (await db.selectFrom('jobs').select('id').where('status', '=', 'succeeded').execute()).length;
    await waitUntil(async () => (await succeeded()) === ids.length, 'all jobs to succeed', 20_000);

    for (const id of ids) {
      const list = runs.get(id) ?? [];
      expect(list, `runs of job ${id}`).toHaveLength(1);
      const ordered = [...list].sort((x, y) => x.start - y.start);
      for (let i = 1; i < ordered.length; i++) {
        expect(ordered[i]?.start).toBeGreaterThanOrEqual(ordered[i - 1]?.end ?? 0);
      }
    }
    const byWorker = [...runs.values()].flat().map((r) => r.worker);
    expect(byWorker.filter((w) => w === 'a').length).toBeGreaterThan(0);
    expect(byWorker.filter((w) => w === 'b').length).toBeGreaterThan(0);
    const attempts = await db.selectFrom('jobs').select('attempts').execute();
    expect(attempts.every((r) => r.attempts === 1)).toBe(true);
  });

  it('renews the lease of a long handler so no other worker takes the job', async () => {
    const runs: string[] = [];
    const job = defineJob({
      queue: 'test.long',
      schema: z.unknown(),
      handler: async (deps: { name: string }) => {
        runs.push(deps.name);
        await sleep(900);
      },
    });
    const id = await enqueue(db, { queue: job.queue, payload: null }, Date.now);
    await startWorker({ jobs: [job], deps: { name: 'a' }, leaseMs: 300 });
    await waitUntil(() => runs.length === 1, 'the first worker to start');
    await startWorker({ db: otherDb(), jobs: [job], deps: { name: 'b' }, leaseMs: 300 });
    await waitUntil(async () => (await getJob(id)).status === 'succeeded', 'the job to finish');
    expect(runs).toEqual(['a']);
    expect((await getJob(id)).attempts).toBe(1);
  });

  it.each(['succeeds', 'fails'] as const)(
    'ignores the outcome of a worker whose expired lease was taken over (late holder %s)',
    async (lateOutcome) => {
      const gates = { a: deferred(), b: deferred() };
      const started: string[] = [];
      const signals: Partial<Record<'a' | 'b', AbortSignal>> = {};
      const job = defineJob({
        queue: 'test.takeover',
        schema: z.unknown(),
        handler: async (deps: { name: 'a' | 'b' }, _payload, run) => {
          started.push(deps.name);
          signals[deps.name] = run.signal;
          await gates[deps.name].promise;
        },
      });
      const id = await enqueue(db, { queue: job.queue, payload: {} }, Date.now);
      // Worker b's clock runs two minutes ahead, so a's lease looks expired to it however often
      // a renews: the situation of a worker that stalled past its lease and then woke up.
      const a = await startWorker({
        jobs: [job],
        deps: { name: 'a' },
        leaseMs: 300,
        workerId: 'a',
      });
      await waitUntil(() => started.includes('a'), 'worker a to start the job');
      expect((await getJob(id)).locked_by).toMatch(/^a#/);

      const later: Clock = () => Date.now() + 120_000;
      await startWorker({
        db: otherDb(),
        jobs: [job],
        deps: { name: 'b' },
        leaseMs: 60_000,
        clock: later,
        workerId: 'b',
      });
      await waitUntil(() => started.includes('b'), 'worker b to take the job over');
      expect(await getJob(id)).toMatchObject({ status: 'running', attempts: 2 });
      // a's next renewal finds the row no longer its own and tells its handler to give up.
      await waitUntil(() => signals.a?.aborted === true, 'worker a to notice it lost the lease');

      if (lateOutcome === 'succeeds') gates.a.resolve();
      else gates.a.reject(new Error('late failure'));
      await a.stop({ timeoutMs: 2000 }); // returns once a's run has settled (or tried to)
      const afterA = await getJob(id);
      expect(afterA).toMatchObject({
        status: 'running',
        attempts: 2,
        last_error: null,
        finished_at: null,
      });
      expect(afterA.locked_by).toMatch(/^b#/);
      expect(signals.b?.aborted).toBe(false);

      gates.b.resolve();
      await waitUntil(
        async () => (await getJob(id)).status === 'succeeded',
        'worker b to complete the job',
      );
      const final = await getJob(id);
      expect(final.locked_by).toMatch(/^b#/);
      expect(final.attempts).toBe(2);
      expect(started).toEqual(['a', 'b']);
    },
  );
});
