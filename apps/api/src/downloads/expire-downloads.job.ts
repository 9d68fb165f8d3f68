import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import type { Schedule } from '../jobs/worker.js';
import type { Storage } from '../storage/storage.js';
import type { Config } from '../config/config.js';
import { markDownloadFailed } from './download-outcome.js';
import { buildJobKey, partKey } from './downloads.keys.js';

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
  const parts = await deps.db
    .selectFrom('download_parts')
    .select('part_number')
    .where('download_id', '=', downloadId)
    .execute();
  // Plain or encrypted, depending on the team's plan when it was built.
  for (const { part_number } of parts) {
    await deps.storage.delete(partKey(downloadId, part_number));
    await deps.storage.delete(partKey(downloadId, part_number, true));
  }
  await deps.db.deleteFrom('download_parts').where('download_id', '=', downloadId).execute();
  await deps.db.deleteFrom('download_entries').where('download_id', '=', downloadId).execute();
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
      const due = await db
        .selectFrom('downloads')
        .select('id')
        .where('status', '=', 'ready')
        .where('expires_at', '<=', now)
        .limit(BATCH)
        .execute();
      for (const { id } of due) {
        await deleteParts(deps, id);
        await db
          .updateTable('downloads')
          .set({ status: 'expired', updated_at: clock() })
          .where('id', '=', id)
          .execute();
      }
      if (due.length < BATCH) break;
    }

    const orphans = await db
      .selectFrom('downloads')
      .select('id')
      .where('status', '=', 'inProgress')
      .where('updated_at', '<', now - ORPHAN_GRACE_MS)
      .execute();
    for (const { id } of orphans) {
      const live = await db
        .selectFrom('jobs')
        .select('id')
        .where('dedupe_key', '=', buildJobKey(id))
        .where('status', 'in', ['pending', 'running'])
        .executeTakeFirst();
      if (!live)
        await db
          .transaction()
          .execute((trx) =>
            markDownloadFailed(trx, deps, id, 'the build job ended without finishing'),
          );
    }

    // Failed builds may have stored some parts; their rows keep the status for the requester.
    const failed = await db
      .selectFrom('downloads')
      .select('id')
      .where('status', '=', 'failed')
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('download_parts')
            .select(sql`1`.as('one'))
            .whereRef('download_parts.download_id', '=', 'downloads.id'),
        ),
      )
      .limit(BATCH)
      .execute();
    for (const { id } of failed) await deleteParts(deps, id);

    await db
      .deleteFrom('downloads')
      .where('status', 'in', ['expired', 'failed'])
      .where('updated_at', '<', now - DOWNLOAD_HISTORY_MS)
      .execute();
  },
});

export const expireDownloadsSchedule: Schedule = {
  queue: expireDownloadsJob.queue,
  everyMs: 15 * 60_000,
  payload: {},
};
