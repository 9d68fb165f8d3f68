import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Db, DbKind } from '../db/create-db.js';
import type { Metrics } from '../metrics/metrics.js';
import { PermanentJobError, type JobDefinition, type JobRegistry } from './define-job.js';
import { enqueue } from './enqueue.js';
import {
  claimJobs,
  markForRetry,
  markFinished,
  releaseLease,
  renewLease,
} from './jobs.repository.js';
import type { Clock, JobRow, JobRun } from './types.js';

export interface WorkerOptions<D> {
  db: Db;
  dbKind: DbKind;
  jobs: JobRegistry<D>;
  deps: D;
  /** Jobs run at the same time by this worker. */
  concurrency: number;
  /** How long a claim stays valid without renewal; a dead worker's jobs wait this long. */
  leaseMs: number;
  /** Pause between claims when nothing was due. */
  pollMs: number;
  logger: Logger;
  clock: Clock;
  workerId?: string;
  /** Counts the runs that end here, and the failed ones, by queue. */
  metrics?: Pick<Metrics, 'jobsRun' | 'jobsFailed'>;
}

export interface Schedule {
  queue: string;
  everyMs: number;
  payload: unknown;
}

export interface Worker {
  readonly id: string;
  /** Registers a recurring job; call before `start()`. */
  schedule(schedule: Schedule): void;
  start(): Promise<void>;
  /**
   * Stops claiming and waits up to `timeoutMs` for running handlers; whatever is still running
   * then is handed back to the queue (pending, the attempt not counted).
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Claims now instead of at the next poll (e.g. right after committing new jobs). */
  poke(): void;
}

interface ActiveRun {
  job: JobRow;
  token: string;
  controller: AbortController;
  done: Promise<void>;
  /** Set once the handler returned or threw: from then on a vanished lease is expected. */
  handlerDone: boolean;
  renewal?: NodeJS.Timeout;
}

/** How often each worker re-creates a missing scheduled job (e.g. deleted by hand). */
const SCHEDULE_CHECK_MS = 60_000;
const DEFAULT_STOP_TIMEOUT_MS = 30_000;

export function scheduleDedupeKey(queue: string): string {
  return `schedule:${queue}`;
}

export function createWorker<D>(options: WorkerOptions<D>): Worker {
  const { db, dbKind, deps, concurrency, leaseMs, pollMs, clock, metrics } = options;
  const id = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const logger = options.logger.child({ worker: id });
  const definitions = new Map<string, JobDefinition<D>>();
  for (const def of options.jobs) {
    if (definitions.has(def.queue)) throw new Error(`two job definitions for queue ${def.queue}`);
    definitions.set(def.queue, def);
  }
  const schedules = new Map<string, Schedule>();
  const active = new Set<ActiveRun>();
  let state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  let loopDone: Promise<void> = Promise.resolve();
  let claims = 0;
  let saturated = false;
  let lastScheduleCheck = 0;
  let wake: (() => void) | null = null;
  let stopping: Promise<void> | undefined;

  function poke(): void {
    const resolve = wake;
    wake = null;
    resolve?.();
  }

  function idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async function ensureSchedules(): Promise<void> {
    lastScheduleCheck = performance.now();
    for (const s of schedules.values()) {
      await enqueue(
        db,
        {
          queue: s.queue,
          payload: s.payload,
          maxAttempts: definitions.get(s.queue)?.maxAttempts,
          dedupeKey: scheduleDedupeKey(s.queue),
        },
        clock,
      );
    }
  }

  // A function, not an inline comparison: `state` changes while the loop awaits.
  const running = (): boolean => state === 'running';

  async function loop(): Promise<void> {
    while (running()) {
      const free = concurrency - active.size;
      if (free > 0) {
        try {
          // A token per claim, not just the worker id: a run that outlived stop() and a later
          // claim of the same job by this worker must not be able to settle each other's state.
          const token = `${id}#${++claims}`;
          const jobs = await claimJobs(db, dbKind, {
            lockedBy: token,
            limit: free,
            now: clock(),
            leaseMs,
            excludeIds: [...active].map((r) => r.job.id),
          });
          // Launch even if stop() came meanwhile: the rows are ours now and stop() waits for them.
          for (const job of jobs) launch(job, token);
          saturated = jobs.length === free;
        } catch (err) {
          saturated = false;
          logger.error({ err }, 'claiming jobs failed');
        }
      }
      if (schedules.size > 0 && performance.now() - lastScheduleCheck >= SCHEDULE_CHECK_MS) {
        await ensureSchedules().catch((err: unknown) => logger.error({ err }, 'scheduling failed'));
      }
      if (!running()) break;
      // A full claim means more may be due: go again as soon as a slot is free.
      if (saturated && active.size < concurrency) continue;
      await idle(pollMs);
    }
  }

  function launch(job: JobRow, token: string): void {
    const controller = new AbortController();
    const run: ActiveRun = { job, token, controller, done: Promise.resolve(), handlerDone: false };
    active.add(run);
    run.renewal = setInterval(() => void renew(run), Math.max(10, Math.floor(leaseMs / 3)));
    controller.signal.addEventListener('abort', () => clearInterval(run.renewal));
    run.done = execute(run)
      .catch((err: unknown) => {
        // The settle update itself failed (database down): the lease runs out and the job runs again.
        logger.error({ err, job: job.id, queue: job.queue }, 'could not record job outcome');
      })
      .finally(() => {
        clearInterval(run.renewal);
        active.delete(run);
        if (saturated) poke();
      });
  }

  async function renew(run: ActiveRun): Promise<void> {
    try {
      const now = clock();
      const kept = await renewLease(db, run.job.id, run.token, now + leaseMs, now);
      if (!kept && !run.handlerDone && !run.controller.signal.aborted) {
        logger.warn({ job: run.job.id, queue: run.job.queue }, 'lease lost; abandoning the run');
        run.controller.abort(new Error('job lease lost'));
      }
    } catch (err) {
      logger.warn({ err, job: run.job.id }, 'lease renewal failed');
    }
  }

  /** A run ended: it failed unless `failed` is undefined; `final`: no retry is left. */
  function count(run: ActiveRun, failed?: { final: boolean }): void {
    if (!metrics) return;
    const { queue } = run.job;
    metrics.jobsRun.inc({ queue });
    // A run this worker gave up on (stopped, or its lease taken over) runs again: not a failure.
    if (failed && !run.controller.signal.aborted) {
      metrics.jobsFailed.inc({ queue, final: String(failed.final) });
    }
  }

  async function execute(run: ActiveRun): Promise<void> {
    const { job, token } = run;
    const def = definitions.get(job.queue);
    if (!def) {
      count(run, { final: true });
      await settleFailed(run, `unknown queue ${job.queue}`);
      return;
    }
    let bound: (deps: D, job: JobRun) => Promise<void>;
    try {
      bound = def.prepare(JSON.parse(job.payload));
    } catch (err) {
      count(run, { final: true });
      await settleFailed(run, `invalid payload: ${errorText(err)}`);
      return;
    }
    const info: JobRun = {
      id: job.id,
      queue: job.queue,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      createdAt: job.created_at,
      signal: run.controller.signal,
    };
    const started = performance.now();
    let failure: { err: unknown } | undefined;
    try {
      await bound(deps, info);
    } catch (err) {
      failure = { err };
    } finally {
      run.handlerDone = true;
      clearInterval(run.renewal);
    }
    const final = job.attempts >= job.max_attempts || failure?.err instanceof PermanentJobError;
    count(run, failure && { final });
    if (!failure) {
      const ms = Math.round(performance.now() - started);
      logger.debug({ job: job.id, queue: job.queue, ms }, 'job done');
      await settle(run, (q, now) => markFinished(q, job.id, token, now, { status: 'succeeded' }));
      return;
    }
    const { err } = failure;
    const context = { err, job: job.id, queue: job.queue, attempt: job.attempts };
    if (final) {
      logger.error(context, 'job failed');
      await settleFailed(run, errorText(err));
      return;
    }
    const now = clock();
    const runAt = now + def.backoff(job.attempts);
    logger.warn({ ...context, runAt }, 'job failed; will retry');
    const owned = await markForRetry(db, job.id, token, now, runAt, errorText(err));
    if (!owned) logger.warn({ job: job.id }, 'job was taken over; its failure is ignored');
  }

  function settleFailed(run: ActiveRun, error: string): Promise<void> {
    return settle(run, (q, now) =>
      markFinished(q, run.job.id, run.token, now, { status: 'failed', error }),
    );
  }

  /**
   * Records a final outcome. For a scheduled job the next occurrence is enqueued in the same
   * transaction, so there is never a moment with none, and the partial unique index on
   * dedupe_key makes a second one impossible.
   */
  async function settle(
    run: ActiveRun,
    mark: (q: Db, now: number) => Promise<boolean>,
  ): Promise<void> {
    const { job } = run;
    const schedule = schedules.get(job.queue);
    const now = clock();
    let owned: boolean;
    if (schedule && job.dedupe_key === scheduleDedupeKey(job.queue)) {
      owned = await db.transaction().execute(async (trx) => {
        if (!(await mark(trx, now))) return false;
        await enqueue(
          trx,
          {
            queue: schedule.queue,
            payload: schedule.payload,
            runAt: now + schedule.everyMs,
            maxAttempts: job.max_attempts,
            dedupeKey: job.dedupe_key ?? undefined,
          },
          clock,
        );
        return true;
      });
    } else {
      owned = await mark(db, now);
    }
    if (!owned)
      logger.warn({ job: job.id, queue: job.queue }, 'job was taken over; this outcome is ignored');
  }

  return {
    id,
    schedule(s) {
      if (state !== 'idle') throw new Error('schedule() must be called before start()');
      if (!definitions.has(s.queue))
        throw new Error(`no job definition for scheduled queue ${s.queue}`);
      if (!(s.everyMs > 0)) throw new Error('everyMs must be positive');
      schedules.set(s.queue, s);
    },
    async start() {
      if (state !== 'idle') throw new Error(`worker is ${state}`);
      state = 'running';
      if (schedules.size > 0) await ensureSchedules();
      loopDone = loop();
      logger.info({ concurrency, queues: [...definitions.keys()] }, 'worker started');
    },
    stop({ timeoutMs = DEFAULT_STOP_TIMEOUT_MS } = {}) {
      // A second SIGTERM (or stop from two places) waits for the same shutdown.
      stopping ??= shutdown(timeoutMs);
      return stopping;
    },
    poke,
  };

  async function shutdown(timeoutMs: number): Promise<void> {
    if (state === 'idle') {
      state = 'stopped';
      return;
    }
    state = 'stopping';
    poke();
    await loopDone;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      Promise.all([...active].map((r) => r.done)).then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!finished) {
      for (const run of [...active]) {
        // Release before aborting: an aborted handler that throws at once must not be recorded
        // as a failed attempt while the lease is still ours.
        const released = await releaseLease(db, run.job.id, run.token, clock()).catch(
          (err: unknown) => {
            logger.error({ err, job: run.job.id }, 'could not release job');
            return false;
          },
        );
        logger.warn(
          { job: run.job.id, queue: run.job.queue, released },
          'job still running at stop',
        );
        run.controller.abort(new Error('worker stopped'));
      }
    }
    state = 'stopped';
    logger.info('worker stopped');
  }
}

function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
