import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import type { Schedule } from '../jobs/worker.js';
import type { Storage } from '../storage/storage.js';
import { verifyStorage } from './verify-storage.js';

export interface VerifyStorageJobDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
  logger: Logger;
}

/**
 * The scheduled integrity check (VERIFY_STORAGE_INTERVAL_HOURS). A worker stopped or killed
 * mid-run leaves the run's place in the database; the job's next attempt (or the next scheduled
 * one) goes on from there. It reports and never deletes.
 */
export const verifyStorageJob = defineJob({
  queue: 'storage.verify',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async (deps: VerifyStorageJobDeps, _payload, job) => {
    const report = await verifyStorage(deps, { signal: job.signal });
    // Stopped with its place kept: the job runs again (elsewhere) and resumes.
    if (!report.complete) job.signal.throwIfAborted();
    const found = report.findings.length;
    const summary = {
      runId: report.runId,
      filesChecked: report.filesChecked,
      bytesRead: report.bytesRead,
      ...report.counts,
    };
    if (found === 0) deps.logger.info(summary, 'storage integrity check: nothing found');
    else
      deps.logger.warn(
        {
          ...summary,
          findings: report.findings
            .slice(0, 50)
            .map((f) => ({ kind: f.kind, key: f.key, fileId: f.fileId, detail: f.detail })),
        },
        `storage integrity check: ${found} finding(s); run \`npm run admin -- verify-storage\` for the list`,
      );
  },
});

/** Null when VERIFY_STORAGE_INTERVAL_HOURS is 0: no scheduled check. */
export function verifyStorageSchedule(config: Config): Schedule | null {
  if (!(config.integrity.intervalMs > 0)) return null;
  return { queue: verifyStorageJob.queue, everyMs: config.integrity.intervalMs, payload: {} };
}
