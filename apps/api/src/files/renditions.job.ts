import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob, PermanentJobError } from '../jobs/define-job.js';
import type { Clock, JobRun } from '../jobs/types.js';
import { objectFile, scratchDirOf } from '../storage/object-file.js';
import {
  StorageNotFoundError,
  StorageTooLargeError,
  type ObjectFile,
  type Storage,
} from '../storage/storage.js';
import { keysOfRow } from './files.keys.js';
import { findFileById, type FileRow } from './files.repository.js';
import { makeRenditions, RenditionError } from './renditions.js';

export interface RenditionJobDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
}

/**
 * Beyond this the job refuses the original rather than spend the disk and the time on it. Pixel
 * bombs in small files are stopped by makeRenditions' pixel limit instead.
 */
export const MAX_RENDITION_SOURCE_BYTES = 200 * 1024 * 1024;

/** A failure that no retry can mend: the file is marked failed and the job fails at once. */
class UnrenderableError extends Error {
  readonly reason: string;

  constructor(reason: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnrenderableError';
    this.reason = reason;
  }
}

/**
 * The original as a file on local disk, never whole in memory: sharp reads it as it decodes. On
 * local storage a hard link to the object; on S3, or for an encrypted object, a copy streamed
 * (deciphered) into DATA_DIR/tmp. The caller releases it.
 */
async function openSource(deps: RenditionJobDeps, key: string, job: JobRun): Promise<ObjectFile> {
  const { storage, config } = deps;
  const info = await storage.stat(key);
  if (info === null) throw new UnrenderableError('missing', 'the original is not in storage');
  if (info.size > MAX_RENDITION_SOURCE_BYTES)
    throw new UnrenderableError('tooLarge', `the original has ${info.size} bytes`);
  try {
    return await objectFile(storage, key, {
      scratchDir: scratchDirOf(config.dataDir),
      // The object could be replaced between stat and here; the bound holds for what is read.
      maxBytes: MAX_RENDITION_SOURCE_BYTES,
      signal: job.signal,
    });
  } catch (err) {
    if (err instanceof StorageNotFoundError)
      throw new UnrenderableError('missing', 'the original is not in storage', { cause: err });
    if (err instanceof StorageTooLargeError)
      throw new UnrenderableError(
        'tooLarge',
        `the original has more than ${MAX_RENDITION_SOURCE_BYTES} bytes`,
        { cause: err },
      );
    throw err;
  }
}

/** Never touches updated_at: lists are ordered by it, and a thumbnail is not a change. */
async function markFailed(db: Db, fileId: string): Promise<void> {
  await db
    .updateTable('files')
    .set({ rendition_status: 'failed' })
    .where('id', '=', fileId)
    .where('rendition_status', '!=', 'ready')
    .execute();
}

async function render(deps: RenditionJobDeps, file: FileRow, job: JobRun): Promise<void> {
  const { db, storage, config } = deps;
  const source = await openSource(deps, file.storage_key, job);
  let made;
  try {
    made = await makeRenditions(source.path, file.content_type, {
      maxInputPixels: config.files.maxInputPixels,
    });
  } catch (err) {
    if (err instanceof RenditionError)
      throw new UnrenderableError(err.reason, err.message, { cause: err });
    throw err;
  } finally {
    await source.release();
  }
  job.signal.throwIfAborted();
  const keys = keysOfRow(file);
  // Same keys, same bytes on every run: a second run overwrites with identical objects.
  const webp = { contentType: 'image/webp', digest: false };
  await storage.put(keys.thumbnail, Readable.from(made.thumbnail), webp);
  await storage.put(keys.preview, Readable.from(made.preview), webp);
  const result = await db
    .updateTable('files')
    .set({
      rendition_status: 'ready',
      thumbnail_key: keys.thumbnail,
      preview_key: keys.preview,
      width: made.width,
      height: made.height,
    })
    .where('id', '=', file.id)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    // Deleted while rendering: its delete job may already have run, so clean up behind it.
    await storage.delete(keys.thumbnail);
    await storage.delete(keys.preview);
  }
}

/**
 * Makes the WebP thumbnail and preview of an uploaded image. An image that cannot be rendered
 * (too many pixels, undecodable, too large to read) is marked failed and the job fails at once
 * with the reason in its last_error (the worker logs it); storage or database trouble is retried,
 * and the file is marked failed when the last attempt fails too.
 */
export const renderFileJob = defineJob({
  queue: 'files.renditions',
  schema: z.object({ fileId: z.uuid() }),
  maxAttempts: 3,
  handler: async (deps: RenditionJobDeps, { fileId }, job) => {
    const file = await findFileById(deps.db, fileId);
    // Deleted since, or rendered by an earlier run that crashed before finishing the job.
    if (!file || file.rendition_status === 'ready' || file.rendition_status === 'none') return;
    try {
      await render(deps, file, job);
    } catch (err) {
      if (err instanceof UnrenderableError) {
        await markFailed(deps.db, fileId);
        throw new PermanentJobError(
          `rendition of file ${fileId} failed: ${err.reason} (${err.message})`,
          {
            cause: err,
          },
        );
      }
      if (job.attempt >= job.maxAttempts && !job.signal.aborted) await markFailed(deps.db, fileId);
      throw err;
    }
  },
});
