/**
 * A worker process for worker-leases.test.ts to SIGKILL mid-job: it runs jobs of the queue
 * FIXTURE_QUEUE on the database FIXTURE_DB (a JSON Config['database']) with a lease of
 * FIXTURE_LEASE_MS; its handler reports each job on stdout and then never finishes.
 * Run with `node --import tsx` from apps/api.
 */
import { pino } from 'pino';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import { createDb } from '../db/create-db.js';
import { defineJob } from './define-job.js';
import { createWorker } from './worker.js';

const env = z
  .object({
    FIXTURE_DB: z.string().transform((v) => JSON.parse(v) as Config['database']),
    FIXTURE_QUEUE: z.string(),
    FIXTURE_LEASE_MS: z.coerce.number().int().positive(),
  })
  .parse(process.env);

const blocking = defineJob({
  queue: env.FIXTURE_QUEUE,
  schema: z.unknown(),
  handler: async (_deps: unknown, _payload, job) => {
    process.stdout.write(`started ${job.id} ${job.attempt}\n`);
    await new Promise<never>(() => undefined);
  },
});

const worker = createWorker({
  db: createDb(env.FIXTURE_DB),
  dbKind: env.FIXTURE_DB.kind,
  jobs: [blocking],
  deps: {},
  concurrency: 1,
  leaseMs: env.FIXTURE_LEASE_MS,
  pollMs: 20,
  logger: pino({ level: 'silent' }),
  clock: Date.now,
  workerId: 'fixture',
});
await worker.start();
