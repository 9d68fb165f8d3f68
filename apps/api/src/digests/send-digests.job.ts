import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import type { Schedule } from '../jobs/worker.js';
import type { Logger } from 'pino';
import { sendDueDigests } from './digests.service.js';

/**
 * Queues the digests that are due (digests.service.ts, sendDueDigests). Crash-safe by
 * construction: each member's mail job and cursor commit in one transaction, so a retry after a
 * crash sends what the dead run did not commit, and nothing it did.
 */
export const sendDigestsJob = defineJob({
  queue: 'digests.send',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async (deps: { db: Db; clock: Clock; config: Config; logger: Logger }) => {
    const result = await sendDueDigests(deps);
    if (result.sent > 0) deps.logger.info(result, 'digests queued');
  },
});

/** Every 15 minutes: the `instant` batching window, and daily digests within 15 minutes of due. */
export const sendDigestsSchedule: Schedule = {
  queue: sendDigestsJob.queue,
  everyMs: 15 * 60_000,
  payload: {},
};
