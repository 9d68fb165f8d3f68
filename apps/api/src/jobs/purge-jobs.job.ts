import { z } from 'zod';
import type { Db } from '../db/create-db.js';
import { defineJob } from './define-job.js';
import { purgeFinishedJobs } from './jobs.repository.js';
import type { Clock } from './types.js';
import type { Schedule } from './worker.js';

const DAY_MS = 24 * 60 * 60_000;

export interface PurgeJobsDeps {
  db: Db;
  clock: Clock;
}

/** Deletes finished (succeeded or failed) jobs older than `olderThanDays`. */
export const purgeJobsJob = defineJob({
  queue: 'jobs.purge',
  schema: z.object({ olderThanDays: z.number().int().min(1).default(30) }),
  maxAttempts: 3,
  handler: async ({ db, clock }: PurgeJobsDeps, { olderThanDays }) => {
    await purgeFinishedJobs(db, clock() - olderThanDays * DAY_MS);
  },
});

/** The daily purge, for `worker.schedule(...)`. */
export const purgeJobsSchedule: Schedule = {
  queue: purgeJobsJob.queue,
  everyMs: DAY_MS,
  payload: { olderThanDays: 30 },
};
