import { z } from 'zod';
import type { Clock } from '../context.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Schedule } from '../jobs/worker.js';
import { purgeEndedSessions } from './sessions.js';

/** Expired refresh tokens and long-ended sessions (purgeEndedSessions), once an hour. */
export const purgeSessionsJob = defineJob({
  queue: 'sessions.purge',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async ({ db, clock }: { db: Db; clock: Clock }) => {
    await purgeEndedSessions(db, clock());
  },
});

export const purgeSessionsSchedule: Schedule = {
  queue: purgeSessionsJob.queue,
  everyMs: 60 * 60_000,
  payload: {},
};
