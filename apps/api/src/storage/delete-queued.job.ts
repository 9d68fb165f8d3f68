import { z } from 'zod';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Storage } from './storage.js';

const BATCH = 100;

/**
 * Deletes the objects queued in `storage_deletions` (a deleted collection's originals, renditions
 * and archives), a batch at a time, each row only after its object is gone. Enqueued in the
 * transaction that queued them; deleting a missing object succeeds, so a run that died halfway,
 * or two runs at once, leave nothing behind and fail nothing.
 */
export const deleteQueuedObjectsJob = defineJob({
  queue: 'storage.delete-queued',
  schema: z.object({}),
  maxAttempts: 5,
  handler: async ({ db, storage }: { db: Db; storage: Storage }) => {
    for (;;) {
      const rows = await db
        .selectFrom('storage_deletions')
        .select('key')
        .orderBy('queued_at')
        .orderBy('key')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      const keys = rows.map((row) => row.key);
      for (const key of keys) await storage.delete(key);
      await db.deleteFrom('storage_deletions').where('key', 'in', keys).execute();
    }
  },
});
