import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Config } from './config/config.js';
import type { AppContext, Clock } from './context.js';
import { createDb } from './db/create-db.js';
import { migrateToLatest } from './db/migrate.js';
import { jobs, schedulesFor, type JobDeps } from './job-registry.js';
import { createWorker, type Worker } from './jobs/worker.js';
import { createLogger } from './logger.js';
import { createMailer } from './mail/mailer.js';
import { createMetrics } from './metrics/metrics.js';
import { createStorage } from './storage/create-storage.js';

/** What every process of Raccolta needs, API or worker: context on a migrated database. */
export async function createContext(config: Config, clock: Clock = Date.now): Promise<AppContext> {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const db = createDb(config.database, logger);
  await migrateToLatest(db);
  const storage = createStorage(config, clock);
  const metrics = createMetrics({
    config,
    db,
    clock,
    logger,
    queues: jobs.map((job) => job.queue),
  });
  return {
    config,
    db,
    storage,
    clock,
    logger,
    metrics,
    checkDatabase: async () => {
      await sql`select 1`.execute(db);
    },
    lifecycle: { draining: false },
  };
}

export interface RunningWorker {
  worker: Worker;
  /** Stops claiming, lets running jobs finish (or releases them), closes the mailer. */
  stop: () => Promise<void>;
}

/** Starts a worker running every registered job and schedule. */
export async function startWorker(ctx: AppContext): Promise<RunningWorker> {
  const { config, db, storage, clock, logger, metrics } = ctx;
  const mailer = createMailer(config.mail, logger, { failures: metrics.mailSendFailures });
  const deps: JobDeps = { config, db, storage, clock, mailer, metrics, logger };
  const worker = createWorker({
    db,
    dbKind: config.database.kind,
    jobs,
    deps,
    concurrency: config.worker.concurrency,
    leaseMs: config.worker.leaseMs,
    pollMs: config.worker.pollMs,
    logger,
    clock,
    metrics,
    workerId: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  });
  for (const schedule of schedulesFor(config)) worker.schedule(schedule);
  await worker.start();
  return {
    worker,
    async stop() {
      await worker.stop({ timeoutMs: 25_000 });
      mailer.close();
    },
  };
}
