import { z } from 'zod';
import type { Clock } from '../../context.js';
import type { Db } from '../../db/create-db.js';
import { defineJob } from '../../jobs/define-job.js';
import type { Schedule } from '../../jobs/worker.js';
import { deleteExpiredOauthCodes, deleteExpiredTransactions } from './oauth.repository.js';

/**
 * Logins abandoned at the provider leave a transaction row, and codes the web app never exchanged
 * leave a code row; once expired neither can do anything but take space. Deleting what is expired
 * is idempotent, so a retried run is harmless.
 */
export const purgeOauthJob = defineJob({
  queue: 'oauth.purge',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async ({ db, clock }: { db: Db; clock: Clock }) => {
    const now = clock();
    await deleteExpiredTransactions(db, now);
    await deleteExpiredOauthCodes(db, now);
  },
});

export const purgeOauthSchedule: Schedule = {
  queue: purgeOauthJob.queue,
  everyMs: 60 * 60_000,
  payload: {},
};
