import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import {
  cipherOffset,
  ENCRYPTION_HEADER_BYTES,
  isEncryptedKey,
  type StorageCipher,
} from './encryption.js';
import type { LocalStorage } from './local-storage.js';
import { storageRouteLink, type StorageLinks } from './signed-token.js';
import {
  assertValidMaxBytes,
  assertValidRange,
  StorageTooLargeError,
  type ByteRange,
  type ListedObject,
  type ObjectInfo,
  type PutOptions,
  type PutResult,
  type SignedUrlOptions,
  type Storage,
  type StorageEncryption,
} from './storage.js';

const ignore = () => undefined;

/**
 * Counts and (unless `digest` is false) hashes the plain bytes on their way to the cipher;
 * refuses more than `maxBytes`.
 */
function measure(maxBytes: number | undefined, digest: boolean) {
  const hash = digest ? createHash('sha256') : null;
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      size += chunk.length;
      if (maxBytes !== undefined && size > maxBytes) {
        callback(new StorageTooLargeError(maxBytes));
        return;
      }
      hash?.update(chunk);
      callback(null, chunk);
    },
  });
  return { stream, result: () => ({ size, sha256: hash?.digest('hex') ?? null }) };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * A storage that encrypts every object whose key ends with `.enc` (`encryption.ts`) and hands
 * every other object to the driver untouched. Callers see plain bytes, plain sizes and plain
 * SHA-256s either way; ranged reads stay ranged. A presigned S3 link would hand out ciphertext,
 * so an encrypted object's link is the API's own storage route, which deciphers as it serves.
 */
export function withEncryption(
  inner: Storage,
  cipher: StorageCipher,
  links: StorageLinks,
): Storage {
  async function put(key: string, body: Readable, opts: PutOptions = {}): Promise<PutResult> {
    if (!isEncryptedKey(key)) return inner.put(key, body, opts);
    const { maxBytes } = opts;
    assertValidMaxBytes(maxBytes);
    const counted = measure(opts.maxBytes, opts.digest !== false);
    const encrypted = pipeline(body, counted.stream, cipher.encrypt(), ignore);
    // The digest callers get is of the plain bytes; the ciphertext's would serve nobody.
    await inner.put(key, encrypted, {
      digest: false,
      ...(opts.contentType ? { contentType: opts.contentType } : {}),
    });
    return { key, ...counted.result() };
  }

  async function headerOf(key: string) {
    const header = await readAll(
      await inner.get(key, { start: 0, end: ENCRYPTION_HEADER_BYTES - 1 }),
    );
    return cipher.readHeader(header, key);
  }

  async function get(key: string, range?: ByteRange): Promise<Readable> {
    if (!isEncryptedKey(key)) return inner.get(key, range);
    if (range) assertValidRange(range);
    const sealed = await headerOf(key);
    const start = range?.start ?? 0;
    const stored = await inner.get(key, {
      start: cipherOffset(start),
      ...(range?.end !== undefined ? { end: ENCRYPTION_HEADER_BYTES + range.end } : {}),
    });
    return pipeline(stored, cipher.decrypt(sealed, start), ignore);
  }

  async function stat(key: string): Promise<ObjectInfo | null> {
    const info = await inner.stat(key);
    if (info === null || !isEncryptedKey(key)) return info;
    return { ...info, size: Math.max(0, info.size - ENCRYPTION_HEADER_BYTES) };
  }

  /** The driver's listing, with the plain size of each encrypted object, as stat answers it. */
  async function* list(prefix?: string): AsyncGenerator<ListedObject> {
    for await (const object of inner.list(prefix)) {
      yield isEncryptedKey(object.key)
        ? { ...object, size: Math.max(0, object.size - ENCRYPTION_HEADER_BYTES) }
        : object;
    }
  }

  async function signedUrl(key: string, opts: SignedUrlOptions): Promise<string> {
    // The local driver's links already lead to the storage route, which reads through here.
    if (!isEncryptedKey(key) || inner.kind === 'local') return inner.signedUrl(key, opts);
    return storageRouteLink(links, key, opts);
  }

  const encryption: StorageEncryption = {
    currentKeyId: cipher.keyId.toString('hex'),
    keyIdOf: async (key) => (await headerOf(key)).keyId,
  };
  const storage: Storage = { ...inner, put, get, stat, list, signedUrl, encryption };
  if (inner.kind !== 'local') return storage;
  const local = inner as LocalStorage;
  const adopting: LocalStorage = {
    ...local,
    ...storage,
    kind: 'local',
    /** An encrypted object cannot be a hard link to the plain file: it is written enciphered. */
    async adoptFile(key, sourcePath) {
      if (!isEncryptedKey(key)) return local.adoptFile(key, sourcePath);
      // Its SHA-256 was taken as the upload arrived.
      return (await put(key, createReadStream(sourcePath), { digest: false })).size;
    },
    /** The file on disk holds ciphertext: readers of an encrypted object go through get. */
    async fileForReading(key) {
      return isEncryptedKey(key) ? null : local.fileForReading(key);
    },
  };
  return adopting;
}
