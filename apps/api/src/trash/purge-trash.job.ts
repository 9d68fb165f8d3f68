import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import type { Schedule } from '../jobs/worker.js';
import { purgeExpiredTrash } from './trash.service.js';

/**
 * Deletes for good what has been in a trash longer than TRASH_DAYS: the trash rows, and their
 * objects queued for `storage.delete-queued` in the same transaction. Crash-safe: a batch either
 * committed with its objects queued or left in the trash for the next run.
 */
export const purgeTrashJob = defineJob({
  queue: 'trash.purge',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async ({ db, clock, config }: { db: Db; clock: Clock; config: Config }) => {
    await purgeExpiredTrash({ db, clock, trashDays: config.trashDays });
  },
});

/** Hourly, so an item goes within the hour after its purge date the trash shows. */
export const purgeTrashSchedule: Schedule = {
  queue: purgeTrashJob.queue,
  everyMs: 60 * 60_000,
  payload: {},
};
