import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import type { Schedule } from '../jobs/worker.js';
import { sendDueReminders } from './reminders.service.js';

/**
 * Deadline reminders (issue #36): e-mails the members who can upload to a collection and have
 * uploaded nothing, REMINDER_DAYS before its deadline, each once (reminders.service.ts).
 */
export const sendRemindersJob = defineJob({
  queue: 'collections.reminders',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async ({ db, clock, config }: { db: Db; clock: Clock; config: Config }) => {
    await sendDueReminders({ db, clock, config });
  },
});

/** Every 15 minutes: a reminder leaves within a quarter of an hour of its time. */
export const sendRemindersSchedule: Schedule = {
  queue: sendRemindersJob.queue,
  everyMs: 15 * 60_000,
  payload: {},
};
