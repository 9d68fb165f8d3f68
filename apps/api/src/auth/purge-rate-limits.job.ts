import { z } from 'zod';
import type { Clock } from '../context.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Schedule } from '../jobs/worker.js';
import { purgeExpired } from '../db/rate-limits.js';

/**
 * Every sign-in, mail and invitation counter is a `rate_limits` row keyed by an account, an
 * address or a recipient; a window that has passed counts for nothing (the next hit starts a new
 * one), but its row would stay for ever, one per address that ever tried. Deleting passed windows
 * is idempotent, so a retried run is harmless.
 */
export const purgeRateLimitsJob = defineJob({
  queue: 'rate-limits.purge',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async ({ db, clock }: { db: Db; clock: Clock }) => {
    await purgeExpired(db, clock());
  },
});

export const purgeRateLimitsSchedule: Schedule = {
  queue: purgeRateLimitsJob.queue,
  everyMs: 60 * 60_000,
  payload: {},
};
