import { z } from 'zod';
import { defineJob } from '../jobs/define-job.js';
import { isValidKey, type Storage } from '../storage/storage.js';

/**
 * Deletes the stored objects of a deleted file (original, thumbnail, preview). Enqueued in the
 * transaction that deletes the row, so the bytes go only once the row is surely gone; deleting a
 * missing object succeeds, so a second run changes nothing.
 */
export const deleteFileObjectsJob = defineJob({
  queue: 'files.delete-objects',
  schema: z.object({ keys: z.array(z.string().refine(isValidKey)).min(1).max(10) }),
  maxAttempts: 5,
  handler: async ({ storage }: { storage: Storage }, { keys }) => {
    for (const key of keys) await storage.delete(key);
  },
});
