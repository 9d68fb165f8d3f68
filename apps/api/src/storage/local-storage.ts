import { createHash, randomUUID } from 'node:crypto';
import {
  link,
  lstat,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileBody } from './file-body.js';
import { storageRouteLink } from './signed-token.js';
import {
  assertValidKey,
  assertValidMaxBytes,
  assertValidRange,
  StorageNotFoundError,
  StorageTooLargeError,
  type ByteRange,
  type ListedObject,
  type ObjectFile,
  type ObjectInfo,
  type PutOptions,
  type PutResult,
  type SignedUrlOptions,
  type Storage,
} from './storage.js';

export { verifySignedToken, readSignedToken, type SignedTokenPayload } from './signed-token.js';

/** A large object being written is synced to disk every this many bytes. */
const SYNC_EVERY_BYTES = 64 * 1024 * 1024;

export interface LocalStorageOptions {
  /** DATA_DIR/files */
  root: string;
  signingSecret: string;
  /** Where the API is reachable from a browser, prefix included, e.g. `https://host/api`. */
  publicBaseUrl: string;
  clock?: () => Date;
}

export interface LocalStorage extends Storage {
  readonly kind: 'local';
  readonly root: string;
  /**
   * Publishes a complete file already on this disk under `key` without copying it: synced, then
   * hard-linked, so the source may be removed afterwards. Idempotent: a second call after a crash
   * links again. Resolves to the object's size.
   */
  adoptFile(key: string, sourcePath: string): Promise<number>;
  /**
   * The object as a file of the caller's own without copying it: a hard link in the temp folder
   * (in a folder of its own, whose age the sweep goes by). Null when the bytes on disk are not what
   * readers get (an encrypted object behind `withEncryption`): read those with get. Throws
   * StorageNotFoundError when there is no object.
   */
  fileForReading(key: string): Promise<ObjectFile | null>;
}

const TEMP_DIR = '.tmp';

export function createLocalStorage(options: LocalStorageOptions): LocalStorage {
  const root = path.resolve(options.root);
  const tempDir = path.join(root, TEMP_DIR);
  const publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
  const clock = options.clock ?? (() => new Date());
  const { signingSecret } = options;
  if (signingSecret.length === 0) throw new Error('The signing secret must not be empty');

  function pathOf(key: string): string {
    assertValidKey(key);
    const full = path.join(root, ...key.split('/'));
    // assertValidKey already rules this out; a second check costs nothing next to a disk access.
    if (!full.startsWith(root + path.sep)) throw new Error(`Key escapes the storage root: ${key}`);
    return full;
  }

  async function put(key: string, body: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const finalPath = pathOf(key);
    const { maxBytes } = opts;
    assertValidMaxBytes(maxBytes);

    await mkdir(tempDir, { recursive: true });
    const tempPath = path.join(tempDir, `${randomUUID()}.part`);
    const hash = opts.digest === false ? null : createHash('sha256');
    let size = 0;
    let renamed = false;
    try {
      // Opened before streaming, so a source that fails at once cannot race the file's creation
      // against the cleanup below.
      const file = await open(tempPath, 'wx');
      // Large objects are synced as they are written, not all at the end: the disk works while
      // the rest is still arriving, instead of one long stall before the rename.
      const sync: { unsynced: number; pending: Promise<void> | null; error: Error | null } = {
        unsynced: 0,
        pending: null,
        error: null,
      };
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (maxBytes !== undefined && size > maxBytes) {
            callback(new StorageTooLargeError(maxBytes));
            return;
          }
          hash?.update(chunk);
          sync.unsynced += chunk.length;
          if (sync.unsynced >= SYNC_EVERY_BYTES && sync.pending === null) {
            sync.unsynced = 0;
            sync.pending = file
              .datasync()
              .catch((err: unknown) => {
                sync.error ??= err instanceof Error ? err : new Error(String(err));
              })
              .finally(() => {
                sync.pending = null;
              });
          }
          callback(sync.error, chunk);
        },
      });
      // flush: fsync before close, and the pipeline settles only after the close, so the rename
      // below never publishes a name whose bytes are still only in the page cache.
      const sink = file.createWriteStream({ flush: true });
      try {
        await pipeline(body, meter, sink);
      } finally {
        // Not events.once: it would reject on the sink's copy of the error and skip the wait.
        if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
        await sync.pending;
      }
      if (sync.error) throw sync.error;
      const dir = path.dirname(finalPath);
      await makeDurableDir(dir);
      await rename(tempPath, finalPath);
      renamed = true;
      await syncDir(dir);
    } catch (error) {
      if (!renamed) await rm(tempPath, { force: true }).catch(() => undefined);
      body.destroy();
      throw error;
    }
    return { key, size, sha256: hash?.digest('hex') ?? null };
  }

  async function get(key: string, range?: ByteRange): Promise<Readable> {
    const filePath = pathOf(key);
    if (range) assertValidRange(range);
    // Opening first (rather than stat, then a lazy stream) turns a missing object into a typed
    // error here and keeps reading the same file even if it is replaced or deleted meanwhile.
    let file: FileHandle;
    try {
      file = await open(filePath, 'r');
    } catch (error) {
      if (isMissing(error)) throw new StorageNotFoundError(key, { cause: error });
      throw error;
    }
    let size: number;
    try {
      const info = await file.stat();
      if (!info.isFile()) throw new StorageNotFoundError(key);
      size = info.size;
    } catch (error) {
      await file.close();
      throw error;
    }
    return new FileBody(file, range?.start ?? 0, Math.min(range?.end ?? size - 1, size - 1));
  }

  async function statObject(key: string): Promise<ObjectInfo | null> {
    const filePath = pathOf(key);
    try {
      const info = await stat(filePath);
      return info.isFile() ? { key, size: info.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function deleteObject(key: string): Promise<void> {
    const filePath = pathOf(key);
    try {
      await unlink(filePath);
    } catch (error) {
      // A directory under the key is not an object, so there is nothing to delete either.
      if (isMissing(error) || hasCode(error, 'EISDIR') || hasCode(error, 'EPERM')) return;
      throw error;
    }
  }

  function signedUrl(key: string, opts: SignedUrlOptions): Promise<string> {
    // The executor turns a thrown validation error into a rejection, as callers of a promise expect.
    return new Promise((resolve) => {
      resolve(buildSignedUrl(key, opts));
    });
  }

  function buildSignedUrl(key: string, opts: SignedUrlOptions): string {
    return storageRouteLink({ signingSecret, publicBaseUrl, clock }, key, opts);
  }

  async function health(): Promise<void> {
    await mkdir(tempDir, { recursive: true });
    const probe = path.join(tempDir, `health-${randomUUID()}`);
    try {
      await writeFile(probe, 'ok', { flag: 'wx' });
    } finally {
      await rm(probe, { force: true });
    }
  }

  async function sweepTemp(olderThanMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(tempDir);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    const cutoff = clock().getTime() - olderThanMs;
    let removed = 0;
    for (const name of names) {
      const entry = path.join(tempDir, name);
      try {
        const info = await lstat(entry);
        if (info.mtimeMs < cutoff) {
          await rm(entry, { force: true, recursive: true });
          removed++;
        }
      } catch (error) {
        // Another process may finish or sweep the same file between readdir and here.
        if (!isMissing(error)) throw error;
      }
    }
    return removed;
  }

  /**
   * Walks the folders under `prefix`'s last slash, names sorted, depth first. Names starting with
   * a dot are never keys (assertValidKey), so the temp folder (`.tmp`, where put writes and
   * sweepTemp removes) and anything else the driver keeps for itself are skipped.
   */
  async function* list(prefix = ''): AsyncGenerator<ListedObject> {
    const slash = prefix.lastIndexOf('/');
    const base = slash < 0 ? '' : prefix.slice(0, slash);
    if (base !== '') assertValidKey(base);
    async function* walk(dir: string, keyPrefix: string): AsyncGenerator<ListedObject> {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (entry.name.startsWith('.')) continue;
        const key = keyPrefix + entry.name;
        if (entry.isDirectory()) {
          // Only folders that can hold keys starting with the prefix.
          const folder = `${key}/`;
          if (folder.startsWith(prefix) || prefix.startsWith(folder))
            yield* walk(path.join(dir, entry.name), folder);
        } else if (entry.isFile() && key.startsWith(prefix)) {
          try {
            const info = await stat(path.join(dir, entry.name));
            yield { key, size: info.size, modifiedAt: info.mtime };
          } catch (error) {
            // Deleted since the folder was read.
            if (!isMissing(error)) throw error;
          }
        }
      }
    }
    yield* walk(
      base === '' ? root : path.join(root, ...base.split('/')),
      base === '' ? '' : `${base}/`,
    );
  }

  /**
   * mkdir -p, then fsync the parent of every directory it created: a new directory entry is
   * only durable once its parent is synced, and the final rename lands in the deepest one.
   */
  async function makeDurableDir(dir: string): Promise<void> {
    const firstCreated = await mkdir(dir, { recursive: true });
    await Promise.all(parentsOfCreated(dir, firstCreated).map(syncDir));
  }

  async function adoptFile(key: string, sourcePath: string): Promise<number> {
    const finalPath = pathOf(key);
    const dir = path.dirname(finalPath);
    const firstCreated = await mkdir(dir, { recursive: true });
    try {
      await link(sourcePath, finalPath);
    } catch (error) {
      if (!hasCode(error, 'EEXIST')) throw error;
      const [existing, wanted] = await Promise.all([stat(finalPath), stat(sourcePath)]);
      // Linked already (a retried commit): nothing to do. Anything else is replaced whole.
      if (existing.ino !== wanted.ino || existing.dev !== wanted.dev) {
        await rm(finalPath, { force: true });
        await link(sourcePath, finalPath);
      }
    }
    // Linked before the sync: nothing refers to the name until the caller commits its row, and
    // on journalling file systems the file's sync then carries the new entries with it, so the
    // directory syncs rarely cost another journal commit. The file, its directory and the parent
    // of every directory mkdir created are synced at once: all must be durable before the caller
    // commits, in no order among themselves.
    const [size] = await Promise.all([
      syncFile(finalPath),
      syncDir(dir),
      ...parentsOfCreated(dir, firstCreated).map(syncDir),
    ]);
    return size;
  }

  async function fileForReading(key: string): Promise<ObjectFile> {
    const objectPath = pathOf(key);
    // The link's own mtime is the object's: the folder around it dates the reading for the sweep.
    const dir = path.join(tempDir, `${randomUUID()}.read`);
    await mkdir(dir, { recursive: true });
    const filePath = path.join(dir, 'object');
    let size: number;
    try {
      await link(objectPath, filePath);
      size = (await stat(filePath)).size;
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      // link(2) answers EPERM for a directory: no object there either.
      if (isMissing(error) || hasCode(error, 'EPERM') || hasCode(error, 'EISDIR'))
        throw new StorageNotFoundError(key, { cause: error });
      throw error;
    }
    return { path: filePath, size, release: () => rm(dir, { recursive: true, force: true }) };
  }

  return {
    kind: 'local',
    root,
    adoptFile,
    fileForReading,
    put,
    get,
    stat: statObject,
    delete: deleteObject,
    signedUrl,
    health,
    sweepTemp,
    list,
  };
}

/**
 * The directories whose entries `mkdir(dir, { recursive: true })` changed when it created
 * `firstCreated` (its answer): the parent of each directory it made, deepest first.
 */
function parentsOfCreated(dir: string, firstCreated: string | undefined): string[] {
  if (firstCreated === undefined) return [];
  const top = path.dirname(firstCreated);
  const parents: string[] = [];
  for (let current = path.dirname(dir); ; current = path.dirname(current)) {
    parents.push(current);
    if (current === top || current === path.dirname(current)) return parents;
  }
}

/** fsync of a file's bytes; answers its size. */
async function syncFile(filePath: string): Promise<number> {
  const file = await open(filePath, 'r');
  try {
    await file.sync();
    return (await file.stat()).size;
  } finally {
    await file.close();
  }
}

/** Makes renames and new entries in `dir` survive a power loss. */
async function syncDir(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync, and NTFS journals the metadata anyway.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function hasCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

function isMissing(error: unknown): boolean {
  return hasCode(error, 'ENOENT') || hasCode(error, 'ENOTDIR');
}
