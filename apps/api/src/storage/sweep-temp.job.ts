import { z } from 'zod';
import type { Config } from '../config/config.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import type { Schedule } from '../jobs/worker.js';
import { scratchDirOf, sweepScratch } from './object-file.js';
import type { Storage } from './storage.js';

const HOUR_MS = 60 * 60_000;

/**
 * Removes what crashed writes left in storage. The age is far above the longest upload, so a slow
 * upload still in progress never loses its temp file — resumable uploads included, which may live
 * for UPLOAD_EXPIRY_HOURS (on S3 they are multipart uploads like any other; the uploads' own
 * expiry job deletes them first). Scratch copies in DATA_DIR/tmp (`object-file.ts`) that a crash
 * left are removed at the same age.
 */
export const sweepStorageTempJob = defineJob({
  queue: 'storage.sweep-temp',
  schema: z.object({ olderThanMs: z.number().int().min(HOUR_MS) }),
  maxAttempts: 3,
  handler: async (
    { storage, config, clock }: { storage: Storage; config: Config; clock: Clock },
    { olderThanMs },
  ) => {
    await storage.sweepTemp(Math.max(olderThanMs, config.files.uploadExpiryMs + HOUR_MS));
    // Scratch copies live only while a job reads them (a rendition: seconds to minutes).
    await sweepScratch(scratchDirOf(config.dataDir), olderThanMs, clock());
  },
});

export const sweepStorageTempSchedule: Schedule = {
  queue: sweepStorageTempJob.queue,
  everyMs: 6 * HOUR_MS,
  payload: { olderThanMs: 24 * HOUR_MS },
};
