import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { ERRORS } from '@tus/utils';
import { S3Store } from '@tus/s3-store';
import type { Config } from '../config/config.js';
import { encryptedKey, isEncryptedKey } from '../storage/encryption.js';
import type { LocalStorage } from '../storage/local-storage.js';
import { s3ClientConfig } from '../storage/s3-storage.js';
import type { ByteRange, Storage } from '../storage/storage.js';
import { ProductUploadStore } from './upload-store.js';

/**
 * Where a storage driver keeps resumable uploads while they are in progress, and how a complete
 * one becomes a stored object without copying its bytes.
 */
export interface UploadBackend {
  readonly store: ProductUploadStore;
  /** The id the tus store knows an upload by. */
  storeId(uploadId: string): string;
  /** The bytes received so far. */
  read(uploadId: string, range?: ByteRange): Promise<Readable>;
  /**
   * Makes a complete upload a stored object; answers its storage key (`fileKey`, or the upload's
   * own object where the driver can adopt it as it is). A `fileKey` ending in `.enc` is written
   * enciphered (the premium plan, `storage/encryption.ts`), never adopted. Idempotent.
   */
  publish(uploadId: string, fileKey: string): Promise<string>;
  /**
   * Removes what the tus store keeps besides the object the file's row points at (`storageKey`;
   * null when the file is gone too). Idempotent.
   */
  release(uploadId: string, storageKey: string | null): Promise<void>;
  /** Removes everything of an upload that will never become a file. Idempotent. */
  discard(uploadId: string): Promise<void>;
}

/**
 * Bytes a tus file write may hold in memory while the disk writes what came before: the next
 * chunks are read and hashed meanwhile, and written together (fs.WriteStream's default, 16 KiB,
 * let one 64 KiB chunk through at a time, so every chunk waited for the previous write).
 */
export const FILE_WRITE_BUFFER_BYTES = 1024 * 1024;

/** @tus/file-store, writing with FILE_WRITE_BUFFER_BYTES of room; the same files otherwise. */
export class BufferedFileStore extends FileStore {
  constructor(directory: string, expirationPeriodInMilliseconds: number) {
    super({ directory, expirationPeriodInMilliseconds });
  }

  /** An upload's file; ids are ours (UUIDs), this only refuses what could leave the folder. */
  private fileOf(id: string): string {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- tus's errors are answers
    if (id === '' || id === '.' || id === '..' || /[/\\]/.test(id)) throw ERRORS.FILE_NOT_FOUND;
    return path.join(this.directory, id);
  }

  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const file = createWriteStream(this.fileOf(id), {
      flags: 'r+',
      start: offset,
      highWaterMark: FILE_WRITE_BUFFER_BYTES,
    });
    try {
      await pipeline(readable, file);
    } catch {
      // As FileStore answers: the offset stays where the store's own HEAD will find it.
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- tus's errors are answers
      throw ERRORS.FILE_WRITE_ERROR;
    }
    // Every byte that came through, once the stream finished.
    return offset + file.bytesWritten;
  }
}

/** Local disk: tus files under DATA_DIR/uploads, hard-linked into storage when complete. */
function localBackend(config: Config, storage: LocalStorage): UploadBackend {
  const directory = config.uploadsDir;
  const store = new ProductUploadStore(
    new BufferedFileStore(directory, config.files.uploadExpiryMs),
  );
  const fileOf = (uploadId: string) => path.join(directory, uploadId);
  const release = async (uploadId: string) => {
    await Promise.all([
      rm(fileOf(uploadId), { force: true }),
      rm(`${fileOf(uploadId)}.json`, { force: true }),
    ]);
  };
  return {
    store,
    storeId: (uploadId) => uploadId,
    read: (uploadId, range) =>
      Promise.resolve(createReadStream(fileOf(uploadId), range ? { ...range } : {})),
    publish: async (uploadId, fileKey) => {
      await storage.adoptFile(fileKey, fileOf(uploadId));
      return fileKey;
    },
    release,
    discard: release,
  };
}

/**
 * S3: a multipart upload per tus upload (@tus/s3-store) under `uploads/`; once complete, that
 * object is the file (a copy would cost the whole size again, and CopyObject stops at 5 GiB).
 */
function s3Backend(
  config: Config,
  storageConfig: Extract<Config['storage'], { kind: 's3' }>,
  storage: Storage,
): UploadBackend {
  const keyOf = (uploadId: string) => `uploads/${uploadId}`;
  const storeId = (uploadId: string) => `${storageConfig.prefix}${keyOf(uploadId)}`;
  const inner = new S3Store({
    partSize: 8 * 1024 * 1024,
    // Object tags are not implemented by every S3-compatible store; expiry is ours anyway.
    useTags: false,
    expirationPeriodInMilliseconds: config.files.uploadExpiryMs,
    maxConcurrentPartUploads: 4,
    s3ClientConfig: { bucket: storageConfig.bucket, ...s3ClientConfig(storageConfig) },
  });
  const store = new ProductUploadStore(inner);
  const release = async (uploadId: string, storageKey: string | null) => {
    await storage.delete(`${keyOf(uploadId)}.info`);
    await storage.delete(`${keyOf(uploadId)}.part`);
    // The plain object when the file is its encrypted copy, and the other way round.
    if (storageKey !== keyOf(uploadId)) await storage.delete(keyOf(uploadId));
    if (storageKey !== encryptedKey(keyOf(uploadId))) {
      await storage.delete(encryptedKey(keyOf(uploadId)));
    }
  };
  return {
    store,
    storeId,
    read: (uploadId, range) => storage.get(keyOf(uploadId), range),
    publish: async (uploadId, fileKey) => {
      if (!isEncryptedKey(fileKey)) return keyOf(uploadId);
      // The multipart object holds plain bytes: the file is an enciphered copy beside it, and
      // the plain object goes once the file's row points at the copy (release).
      const copy = encryptedKey(keyOf(uploadId));
      // Its SHA-256 was taken as the upload arrived.
      await storage.put(copy, await storage.get(keyOf(uploadId)), { digest: false });
      return copy;
    },
    release,
    discard: async (uploadId) => {
      // Already gone when tus terminated it; the objects below may remain either way.
      await inner.remove(storeId(uploadId)).catch(() => undefined);
      await release(uploadId, null);
    },
  };
}

export function createUploadBackend(config: Config, storage: Storage): UploadBackend {
  if (config.storage.kind === 's3') return s3Backend(config, config.storage, storage);
  if (storage.kind !== 'local') throw new Error('local storage configured, another driver given');
  return localBackend(config, storage as LocalStorage);
}
