import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import type { Clock } from '../jobs/types.js';
import { defineJob } from '../jobs/define-job.js';
import type { Schedule } from '../jobs/worker.js';
import { findFileById } from '../files/files.repository.js';
import type { Storage } from '../storage/storage.js';
import { findUserById } from '../users/users.repository.js';
import { uploadBackendFor } from './backend-cache.js';
import { deleteUpload, listExpiredUploads, type UploadRow } from './uploads.repository.js';
import {
  discardUpload,
  findCompleteUpload,
  finishUpload,
  type UploadDeps,
} from './uploads.service.js';

export interface ExpireUploadsDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
}

const BATCH = 100;

async function expire(deps: UploadDeps, row: UploadRow): Promise<void> {
  if (row.status === 'completed') {
    const file = await findFileById(deps.db, row.id);
    await deps.backend.release(row.id, file?.storage_key ?? null);
    await deleteUpload(deps.db, row.id);
    return;
  }
  const uploader = await findUserById(deps.db, row.created_by);
  const complete = uploader ? await findCompleteUpload(deps, row) : null;
  if (uploader && complete) {
    // Every byte arrived: the user's file is committed, not thrown away.
    try {
      await deps.backend.release(
        row.id,
        await finishUpload(deps, uploader, row, complete.metadata),
      );
      await deleteUpload(deps.db, row.id);
      return;
    } catch (error) {
      // Refused (type, checksum, access lost): finishUpload discarded it already.
      if (error instanceof AppError) return;
      throw error;
    }
  }
  await discardUpload(deps, row);
}

/**
 * Uploads not finished within UPLOAD_EXPIRY_HOURS: their bytes and rows are deleted, which frees
 * the space they held against the team's limit. Rows of completed uploads are dropped too (their
 * file stays). Idempotent: each step can run again after a crash.
 */
export const expireUploadsJob = defineJob({
  queue: 'uploads.expire',
  schema: z.object({}),
  maxAttempts: 3,
  handler: async (base: ExpireUploadsDeps) => {
    const deps: UploadDeps = { ...base, backend: uploadBackendFor(base.config, base.storage) };
    for (;;) {
      const rows = await listExpiredUploads(deps.db, deps.clock(), BATCH);
      for (const row of rows) await expire(deps, row);
      if (rows.length < BATCH) break;
    }
    // Leftovers the table does not know of (a crash between the store's create and the row).
    if (deps.config.storage.kind === 'local') await deps.backend.store.deleteExpired();
    // Locks whose lease ran out (their process died; UPLOAD_LOCKS=database). Leases are real time.
    await deps.db.deleteFrom('upload_locks').where('expires_at', '<', Date.now()).execute();
  },
});

export const expireUploadsSchedule: Schedule = {
  queue: expireUploadsJob.queue,
  everyMs: 15 * 60_000,
  payload: {},
};
