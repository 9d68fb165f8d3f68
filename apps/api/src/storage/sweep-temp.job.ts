import { z } from 'zod';
import { defineJob } from '../jobs/define-job.js';
import type { Schedule } from '../jobs/worker.js';
import type { Storage } from './storage.js';

const HOUR_MS = 60 * 60_000;

/**
 * Removes what crashed writes left in storage. The age is far above the longest upload, so a slow
 * upload still in progress never loses its temp file.
 */
export const sweepStorageTempJob = defineJob({
  queue: 'storage.sweep-temp',
  schema: z.object({ olderThanMs: z.number().int().min(HOUR_MS) }),
  maxAttempts: 3,
  handler: async ({ storage }: { storage: Storage }, { olderThanMs }) => {
    await storage.sweepTemp(olderThanMs);
  },
});

export const sweepStorageTempSchedule: Schedule = {
  queue: sweepStorageTempJob.queue,
  everyMs: 6 * HOUR_MS,
  payload: { olderThanMs: 24 * HOUR_MS },
};
