import type { Readable } from 'node:stream';

/** A byte range with an inclusive end, as in HTTP; no end means "to the end of the object". */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface ObjectInfo {
  key: string;
  size: number;
  contentType?: string;
}

/** An object as a listing names it. */
export interface ListedObject {
  key: string;
  /** Bytes as callers read them (behind the encryption layer: the plain size). */
  size: number;
  /** When the object was last written. */
  modifiedAt: Date;
}

export interface PutResult {
  key: string;
  size: number;
  /** The SHA-256 of the bytes given (hex); null when the put was asked for no digest. */
  sha256: string | null;
}

export interface PutOptions {
  contentType?: string;
  maxBytes?: number;
  /**
   * false: the caller needs no SHA-256 of the bytes (it has one, or none is recorded), so none
   * is computed: a copy, a rendition or an archive would otherwise hash every byte for nothing,
   * about 0.9 s of CPU per GiB on the development machine.
   */
  digest?: boolean;
}

export interface SignedUrlOptions {
  expiresInSeconds: number;
  fileName?: string;
  contentType?: string;
  disposition?: 'attachment' | 'inline';
}

/**
 * Where file bytes live. The shape follows what an S3 driver can do natively (whole-object
 * writes, ranged reads, presigned GET URLs), so the local driver never offers something the
 * scale-out setup could not.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Streams `body` into `key`; readers see either the previous object or the complete new one. */
  put(key: string, body: Readable, opts?: PutOptions): Promise<PutResult>;
  /** Throws StorageNotFoundError when the object does not exist. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<ObjectInfo | null>;
  /**
   * Every object whose key starts with `prefix` (all when none), in no promised order. What a
   * driver keeps for itself (temp files, anything under a dot segment) is never listed.
   */
  list(prefix?: string): AsyncIterable<ListedObject>;
  /** Idempotent: deleting a missing object succeeds. */
  delete(key: string): Promise<void>;
  /** A URL that downloads the object without any other credential until it expires. */
  signedUrl(key: string, opts: SignedUrlOptions): Promise<string>;
  /** Throws when the storage cannot be written to. */
  health(): Promise<void>;
  /**
   * Removes what interrupted writes left behind more than `olderThanMs` ago (temp files, stale
   * multipart uploads). Resolves to the number of leftovers removed.
   */
  sweepTemp(olderThanMs: number): Promise<number>;
  /**
   * The encryption layer's keys (`encrypting-storage.ts`): the id of the key objects are written
   * with now, and of the key an encrypted object (a `.enc` key) was written with. Absent on a bare
   * driver.
   */
  readonly encryption?: StorageEncryption;
}

export interface StorageEncryption {
  /** Hex id of STORAGE_ENCRYPTION_KEY. */
  readonly currentKeyId: string;
  /** Hex id of the key an encrypted object was written with; throws EncryptionKeyError when that
   *  key is not configured, StorageNotFoundError when there is no such object. */
  keyIdOf(key: string): Promise<string>;
}

/**
 * An object's plain bytes as a file on local disk, for a reader that needs a path (sharp reads a
 * file piece by piece instead of holding it whole). The file is the reader's own: replacing or
 * deleting the key meanwhile does not change it. release() removes it; the temp sweeps remove what
 * a crash left.
 */
export interface ObjectFile {
  path: string;
  /** Bytes in the file. */
  size: number;
  release(): Promise<void>;
}

export type StorageErrorCode = 'invalidKey' | 'notFound' | 'tooLarge' | 'invalidRange';

export class StorageError extends Error {
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = 'StorageError';
    this.code = code;
  }
}

export class StorageInvalidKeyError extends StorageError {
  readonly key: string;

  constructor(key: string, reason: string) {
    super('invalidKey', `Invalid storage key (${reason})`);
    this.name = 'StorageInvalidKeyError';
    this.key = key;
  }
}

export class StorageNotFoundError extends StorageError {
  readonly key: string;

  constructor(key: string, opts?: { cause?: unknown }) {
    super('notFound', `No stored object at ${key}`, opts);
    this.name = 'StorageNotFoundError';
    this.key = key;
  }
}

/**
 * Copies an object to another key through `storage` (so an encrypted one is deciphered and
 * enciphered again with the current key); false when there is no object to copy.
 */
export async function copyObject(storage: Storage, from: string, to: string): Promise<boolean> {
  try {
    await storage.put(to, await storage.get(from), { digest: false });
    return true;
  } catch (error) {
    if (error instanceof StorageNotFoundError) return false;
    throw error;
  }
}

export class StorageTooLargeError extends StorageError {
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super('tooLarge', `The object is larger than ${maxBytes} bytes`);
    this.name = 'StorageTooLargeError';
    this.maxBytes = maxBytes;
  }
}

export class StorageRangeError extends StorageError {
  constructor(range: ByteRange) {
    super('invalidRange', `Invalid byte range ${range.start}-${range.end ?? ''}`);
    this.name = 'StorageRangeError';
  }
}

const MAX_KEY_LENGTH = 1024;

/**
 * Keys end up as file paths on the local driver and as object names on S3, so only plain
 * relative slash paths are accepted: anything that could climb out of the root, or that two
 * drivers would interpret differently, is refused rather than normalised. Segments starting
 * with a dot are refused too, which keeps names like `.tmp` free for a driver's own use.
 */
export function assertValidKey(key: string): void {
  if (key.length === 0) throw new StorageInvalidKeyError(key, 'empty');
  if (key.length > MAX_KEY_LENGTH) throw new StorageInvalidKeyError(key, 'too long');
  if (key.includes('\0')) throw new StorageInvalidKeyError(key, 'NUL character');
  if (key.includes('\\')) throw new StorageInvalidKeyError(key, 'backslash');
  if (key.startsWith('/') || /^[A-Za-z]:/.test(key)) {
    throw new StorageInvalidKeyError(key, 'absolute path');
  }
  for (const segment of key.split('/')) {
    if (segment === '') throw new StorageInvalidKeyError(key, 'empty segment');
    if (segment.startsWith('.')) throw new StorageInvalidKeyError(key, 'dot segment');
  }
}

export function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw new StorageRangeError(range);
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start)) {
    throw new StorageRangeError(range);
  }
}

/** A put's `maxBytes`, when given, is a byte count. */
export function assertValidMaxBytes(maxBytes: number | undefined): void {
  if (maxBytes !== undefined && (!Number.isSafeInteger(maxBytes) || maxBytes < 0)) {
    throw new RangeError(`maxBytes must be a non-negative integer, got ${maxBytes}`);
  }
}
