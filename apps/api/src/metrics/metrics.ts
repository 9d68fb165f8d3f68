import type { Logger } from 'pino';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config/config.js';
import { poolStats, type Db, type PoolStats } from '../db/create-db.js';

/** Epoch milliseconds (the context's clock). */
type Clock = () => number;

/**
 * The Prometheus metrics of one context: a registry of its own, not prom-client's global one, so
 * the many apps a test process builds never share (or clash over) a metric. Counters and
 * histograms are moved where things happen; the gauges that describe shared state (the jobs
 * table, uploads in progress, the database pool) are read when the registry is scraped, so every
 * process, API or worker, reports what is true of the whole installation.
 */
export interface Metrics {
  readonly registry: Registry;
  /** METRICS_TOKEN or METRICS_PORT is set: requests are timed and the process metrics collected. */
  readonly exposed: boolean;
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Runs that ended, however (a handler returned or threw, or its job could not start). */
  readonly jobsRun: Counter<'queue'>;
  /** Runs that failed; `final`: the job will not run again. */
  readonly jobsFailed: Counter<'queue' | 'final'>;
  /** Bytes of uploads written to storage: tus PATCH (and POST) bodies, multipart file parts. */
  readonly uploadReceivedBytes: Counter<'protocol'>;
  /** Writing one zip part of a collection download, from its first entry to stored. */
  readonly archiveBuildDuration: Histogram;
  readonly mailSendFailures: Counter<'transport'>;
}

export interface MetricsOptions {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Every job queue this installation has, reported at 0 when nothing waits in it. */
  queues: readonly string[];
}

/** Request durations, from 5 ms; the long tail is uploads and downloads streamed in one request. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** A zip part holds up to DOWNLOAD_PART_MAX_BYTES (2 GiB): seconds to many minutes. */
const ARCHIVE_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

interface JobsSnapshot {
  /** Per queue: jobs due and not claimed, and the earliest time one of them became due. */
  waiting: Map<string, { count: number; oldestRunAt: number }>;
  running: Map<string, number>;
}

export function createMetrics(options: MetricsOptions): Metrics {
  const { config, db, clock, logger } = options;
  const registry = new Registry();
  const exposed = config.metrics.token !== null || config.metrics.port !== null;
  // Only when someone may read them: the event-loop and GC monitors they start are never
  // stopped, and a test process builds hundreds of contexts.
  if (exposed) collectDefaultMetrics({ register: registry });

  const httpRequestDuration = new Histogram({
    name: 'raccolta_http_request_duration_seconds',
    help: 'HTTP requests by method, route template (unmatched: no route) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const jobsRun = new Counter({
    name: 'raccolta_jobs_run_total',
    help: 'Job runs that ended in this process, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  const jobsFailed = new Counter({
    name: 'raccolta_jobs_failed_total',
    help: 'Job runs that failed in this process, by queue; final="true": no retry is left',
    labelNames: ['queue', 'final'] as const,
    registers: [registry],
  });
  const uploadReceivedBytes = new Counter({
    name: 'raccolta_upload_received_bytes_total',
    help: 'Bytes of uploads received and written to storage, by protocol (tus, multipart)',
    labelNames: ['protocol'] as const,
    registers: [registry],
  });
  const archiveBuildDuration = new Histogram({
    name: 'raccolta_download_archive_build_duration_seconds',
    help: 'Time to write one zip part of a collection download into storage',
    buckets: ARCHIVE_BUCKETS,
    registers: [registry],
  });
  const mailSendFailures = new Counter({
    name: 'raccolta_mail_send_failures_total',
    help: 'Mail the transport failed to send (each failed attempt), by transport',
    labelNames: ['transport'] as const,
    registers: [registry],
  });

  // One query serves both job gauges: the registry collects its metrics concurrently, so the
  // second collect finds the first one's query under way and waits for the same answer.
  let jobsQuery: Promise<JobsSnapshot | null> | null = null;
  const jobsSnapshot = (): Promise<JobsSnapshot | null> => {
    jobsQuery ??= readJobs(db, clock())
      .catch((err: unknown) => {
        logger.warn({ err }, 'metrics: could not read the jobs table');
        return null;
      })
      .finally(() => {
        jobsQuery = null;
      });
    return jobsQuery;
  };
  const perQueue = (gauge: Gauge<'queue'>, value: (queue: string) => number, queues: string[]) => {
    gauge.reset();
    for (const queue of queues) gauge.set({ queue }, value(queue));
  };
  const queuesIn = (snapshot: JobsSnapshot) => [
    ...new Set([...options.queues, ...snapshot.waiting.keys(), ...snapshot.running.keys()]),
  ];

  new Gauge({
    name: 'raccolta_job_queue_depth',
    help: 'Jobs due and waiting for a worker, by queue (the whole installation, from the jobs table)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const snapshot = await jobsSnapshot();
      if (!snapshot) {
        this.reset();
        return;
      }
      perQueue(this, (queue) => snapshot.waiting.get(queue)?.count ?? 0, queuesIn(snapshot));
    },
  });
  new Gauge({
    name: 'raccolta_job_queue_oldest_waiting_seconds',
    help: 'How long the longest-waiting due job has waited, by queue (0: none waits)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const snapshot = await jobsSnapshot();
      if (!snapshot) {
        this.reset();
        return;
      }
      const now = clock();
      perQueue(
        this,
        (queue) => {
          const oldest = snapshot.waiting.get(queue)?.oldestRunAt;
          return oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000;
        },
        queuesIn(snapshot),
      );
    },
  });
  new Gauge({
    name: 'raccolta_jobs_running',
    help: 'Jobs claimed by a worker, by queue (the whole installation, from the jobs table)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      const snapshot = await jobsSnapshot();
      if (!snapshot) {
        this.reset();
        return;
      }
      perQueue(this, (queue) => snapshot.running.get(queue) ?? 0, queuesIn(snapshot));
    },
  });
  new Gauge({
    name: 'raccolta_uploads_in_progress',
    help: 'Resumable uploads started and not yet finished or expired (from the uploads table)',
    registers: [registry],
    async collect() {
      try {
        this.set(await countUploadsInProgress(db, clock()));
      } catch (err) {
        logger.warn({ err }, 'metrics: could not read the uploads table');
        this.reset();
      }
    },
  });

  if (poolStats(db)) {
    const pool = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          const stats = poolStats(db);
          if (stats) this.set(read(stats));
        },
      });
    pool(
      'raccolta_db_pool_connections',
      'PostgreSQL connections open (idle or in use)',
      (s) => s.total,
    );
    pool(
      'raccolta_db_pool_idle_connections',
      'PostgreSQL connections open and idle',
      (s) => s.idle,
    );
    pool(
      'raccolta_db_pool_waiting_requests',
      'Queries waiting for a PostgreSQL connection, the pool being full',
      (s) => s.waiting,
    );
    pool('raccolta_db_pool_max_connections', 'The pool size (DATABASE_POOL_SIZE)', (s) => s.max);
  }

  return {
    registry,
    exposed,
    httpRequestDuration,
    jobsRun,
    jobsFailed,
    uploadReceivedBytes,
    archiveBuildDuration,
    mailSendFailures,
  };
}

async function readJobs(db: Db, now: number): Promise<JobsSnapshot> {
  // The (status, run_at) index finds both kinds of rows; finished jobs are never read.
  const rows = await db
    .selectFrom('jobs')
    .select((eb) => [
      'queue',
      'status',
      eb.fn.countAll().as('count'),
      eb.fn.min('run_at').as('oldest'),
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', now)]),
        eb('status', '=', 'running'),
      ]),
    )
    .groupBy(['queue', 'status'])
    .execute();
  const snapshot: JobsSnapshot = { waiting: new Map(), running: new Map() };
  for (const row of rows) {
    const count = Number(row.count);
    if (row.status === 'running') snapshot.running.set(row.queue, count);
    else snapshot.waiting.set(row.queue, { count, oldestRunAt: row.oldest });
  }
  return snapshot;
}

async function countUploadsInProgress(db: Db, now: number): Promise<number> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('status', '=', 'uploading')
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
