import { randomUUID } from 'node:crypto';
import { lstat, mkdir, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { LocalStorage } from './local-storage.js';
import { StorageTooLargeError, type ObjectFile, type Storage } from './storage.js';

/**
 * DATA_DIR/tmp: this process's scratch files (objects copied to local disk for a reader that
 * needs a path). Never shared with storage: on S3 nothing else of DATA_DIR may exist.
 */
export function scratchDirOf(dataDir: string): string {
  return path.join(dataDir, 'tmp');
}

export interface ObjectFileOptions {
  /** Where a copy is written when the object is not a plain file on this disk (`scratchDirOf`). */
  scratchDir: string;
  /** Refuses (StorageTooLargeError) an object larger than this, before or while copying it. */
  maxBytes?: number;
  signal?: AbortSignal;
}

function hasFileForReading(storage: Storage): storage is LocalStorage {
  return storage.kind === 'local' && typeof (storage as LocalStorage).fileForReading === 'function';
}

/**
 * The plain bytes of object `key` as a file on local disk, in constant memory: on local storage a
 * hard link to the object itself; otherwise (S3, or an encrypted object, deciphered as it is read)
 * a copy streamed into `scratchDir`, readable by this user only. The caller must release() it, on
 * failure too; a crash leaves the copy to `sweepScratch`. Throws StorageNotFoundError when there is
 * no object.
 */
export async function objectFile(
  storage: Storage,
  key: string,
  options: ObjectFileOptions,
): Promise<ObjectFile> {
  const { maxBytes } = options;
  options.signal?.throwIfAborted();
  if (hasFileForReading(storage)) {
    const file = await storage.fileForReading(key);
    if (file !== null) {
      if (maxBytes !== undefined && file.size > maxBytes) {
        await file.release();
        throw new StorageTooLargeError(maxBytes);
      }
      return file;
    }
  }
  const body = await storage.get(key);
  await mkdir(options.scratchDir, { recursive: true, mode: 0o700 });
  const filePath = path.join(options.scratchDir, `${randomUUID()}.part`);
  const release = () => rm(filePath, { force: true });
  let size = 0;
  try {
    // Opened before streaming, so a source that fails at once cannot race the file's creation
    // against the cleanup below. Deciphered bytes of a premium file: mode 600.
    const file = await open(filePath, 'wx', 0o600);
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (maxBytes !== undefined && size > maxBytes) callback(new StorageTooLargeError(maxBytes));
        else callback(null, chunk);
      },
    });
    await pipeline(
      body,
      meter,
      file.createWriteStream(),
      options.signal ? { signal: options.signal } : {},
    );
  } catch (error) {
    body.destroy();
    await release();
    throw error;
  }
  return { path: filePath, size, release };
}

/**
 * Removes scratch files older than `olderThanMs` at `now`: what a process that died while reading
 * left behind. Resolves to the number removed.
 */
export async function sweepScratch(dir: string, olderThanMs: number, now: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    const entry = path.join(dir, name);
    try {
      if ((await lstat(entry)).mtimeMs < now - olderThanMs) {
        await rm(entry, { recursive: true, force: true });
        removed++;
      }
    } catch (error) {
      // Released by its reader between readdir and here.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
