import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob, PermanentJobError } from '../jobs/define-job.js';
import type { Clock, JobRun } from '../jobs/types.js';
import { StorageNotFoundError, type Storage } from '../storage/storage.js';
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
 * Sources are read whole into memory for sharp; beyond this the job refuses rather than risk the
 * worker. Pixel bombs in small files are stopped by makeRenditions' pixel limit instead.
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

async function readSource(storage: Storage, key: string): Promise<Buffer> {
  const info = await storage.stat(key);
  if (info === null) throw new UnrenderableError('missing', 'the original is not in storage');
  if (info.size > MAX_RENDITION_SOURCE_BYTES)
    throw new UnrenderableError('tooLarge', `the original has ${info.size} bytes`);
  let stream: Readable;
  try {
    stream = await storage.get(key);
  } catch (err) {
    if (err instanceof StorageNotFoundError)
      throw new UnrenderableError('missing', 'the original is not in storage', { cause: err });
    throw err;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    // The object could be replaced between stat and get; the bound holds for what is read.
    if (size > MAX_RENDITION_SOURCE_BYTES) {
      stream.destroy();
      throw new UnrenderableError('tooLarge', `the original has more than ${size} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
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
  const source = await readSource(storage, file.storage_key);
  let made;
  try {
    made = await makeRenditions(source, file.content_type, {
      maxInputPixels: config.files.maxInputPixels,
    });
  } catch (err) {
    if (err instanceof RenditionError)
      throw new UnrenderableError(err.reason, err.message, { cause: err });
    throw err;
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
