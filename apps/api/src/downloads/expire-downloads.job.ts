import { z } from 'zod';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import type { Schedule } from '../jobs/worker.js';
import type { Storage } from '../storage/storage.js';
import type { Config } from '../config/config.js';
import { markDownloadFailed } from './download-outcome.js';
import { buildJobKey, partKey } from './downloads.keys.js';
import {
  deleteEndedBefore,
  deletePlanRows,
  failedWithParts,
  hasLiveJob,
  inProgressSince,
  markExpired,
  partNumbers,
  readyPastExpiry,
} from './downloads.repository.js';

export interface ExpireDownloadsDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
}

const BATCH = 100;
/** Expired and failed downloads stay listed this long (their status answers), then go. */
export const DOWNLOAD_HISTORY_MS = 30 * 24 * 60 * 60_000;
/** A download in progress with no build job left for this long is failed (a lost job). */
const ORPHAN_GRACE_MS = 10 * 60_000;

/**
 * Deletes every part that may have been stored (a part is stored before its row says so), then
 * the part rows and the plan: an expired or failed download offers no part.
 */
async function deleteParts(deps: ExpireDownloadsDeps, downloadId: string): Promise<void> {
  // Plain or encrypted, depending on the team's plan when it was built.
  for (const partNumber of await partNumbers(deps.db, downloadId)) {
    await deps.storage.delete(partKey(downloadId, partNumber));
    await deps.storage.delete(partKey(downloadId, partNumber, true));
  }
  await deletePlanRows(deps.db, downloadId, true);
}

/**
 * Ends what downloads leave behind: ready ones past `expires_at` become `expired` and their parts
 * are deleted; failed ones lose whatever parts they had stored; downloads whose build job is gone
 * without finishing them are failed; old expired and failed rows are deleted. Each step is safe to
 * run again after a crash: the status changes only once the objects are gone.
 */
export const expireDownloadsJob = defineJob({
  queue: 'downloads.expire',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async (deps: ExpireDownloadsDeps) => {
    const { db, clock } = deps;
    const now = clock();

    for (;;) {
      const due = await readyPastExpiry(db, now, BATCH);
      for (const id of due) {
        await deleteParts(deps, id);
        await markExpired(db, id, clock());
      }
      if (due.length < BATCH) break;
    }

    for (const id of await inProgressSince(db, now - ORPHAN_GRACE_MS)) {
      if (!(await hasLiveJob(db, buildJobKey(id))))
        await db
          .transaction()
          .execute((trx) =>
            markDownloadFailed(trx, deps, id, 'the build job ended without finishing'),
          );
    }

    // Failed builds may have stored some parts; their rows keep the status for the requester.
    for (const id of await failedWithParts(db, BATCH)) await deleteParts(deps, id);

    await deleteEndedBefore(db, now - DOWNLOAD_HISTORY_MS);
  },
});

export const expireDownloadsSchedule: Schedule = {
  queue: expireDownloadsJob.queue,
  everyMs: 15 * 60_000,
  payload: {},
};
