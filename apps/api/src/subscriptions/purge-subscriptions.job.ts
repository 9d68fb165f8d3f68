import { z } from 'zod';
import type { Clock } from '../context.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Schedule } from '../jobs/worker.js';
import { forgetMailTo } from '../mail/recipient-limit.js';
import {
  deleteExpiredSubscriptions,
  deleteNewsletterMailJobs,
  newsletterMailKey,
} from './subscriptions.repository.js';
import { UNSUBSCRIBED_GRACE_MS } from './subscriptions.service.js';

const HOUR_MS = 60 * 60_000;
export const PURGE_SUBSCRIPTIONS_EVERY_MS = HOUR_MS;

/**
 * Spec §9: an unsubscribed address is deleted within 5 days. It becomes due after
 * UNSUBSCRIBED_GRACE_MS (1 day) and the purge runs hourly, so it goes within 25 hours; the 95
 * hours left of the deadline are the slack for runs that fail (three attempts with back-off, then
 * the next hour's run tries again) or a worker that is down. `purgeDeadlineMs` is what a unit test
 * holds against UNSUBSCRIBED_EMAIL_RETENTION_DAYS.
 */
export const purgeDeadlineMs = UNSUBSCRIBED_GRACE_MS + PURGE_SUBSCRIPTIONS_EVERY_MS;

const BATCH = 500;

/**
 * Deletes what is due: pending subscriptions whose link expired, unsubscribed addresses past
 * their grace. With each row goes every copy of the address the newsletter made: its mail jobs
 * (which hold the address in their payload until the jobs purge, 30 days later) and its mail
 * counters. Returns how many rows went.
 */
export async function purgeExpiredSubscriptions(db: Db, now: number): Promise<number> {
  let purged = 0;
  for (;;) {
    const rows = await db.transaction().execute(async (trx) => {
      const gone = await deleteExpiredSubscriptions(trx, now, BATCH);
      await deleteNewsletterMailJobs(
        trx,
        gone.map((row) => newsletterMailKey(row.id, '')),
        ['pending', 'succeeded', 'failed'],
      );
      for (const row of gone) await forgetMailTo(trx, row.email);
      return gone;
    });
    purged += rows.length;
    if (rows.length < BATCH) return purged;
  }
}

export const purgeSubscriptionsJob = defineJob({
  queue: 'subscriptions.purge',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async ({ db, clock }: { db: Db; clock: Clock }) => {
    await purgeExpiredSubscriptions(db, clock());
  },
});

export const purgeSubscriptionsSchedule: Schedule = {
  queue: purgeSubscriptionsJob.queue,
  everyMs: PURGE_SUBSCRIPTIONS_EVERY_MS,
  payload: {},
};
