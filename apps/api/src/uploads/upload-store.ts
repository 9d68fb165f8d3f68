import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline as link, Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, type Upload } from '@tus/utils';
import { AppError } from '../errors/app-error.js';
import { SNIFF_BYTES } from '../files/sniff.js';

/** What a tus request carries that the store needs to see, and what it learns of its upload. */
export interface TusRequestContext {
  /** The checksum of its body (Upload-Checksum). */
  checksum?: { algorithm: ChecksumAlgorithm; expected: Buffer };
  /**
   * Set once this request made the upload a file: what tus asks of the upload afterwards is
   * answered from here (complete), without reading the store's leftovers, which go next.
   */
  finished?: Upload;
  /** Bytes of its body this request handed to the driver's store (raccolta_upload_received_bytes_total). */
  received?: number;
}

export const tusRequestContext = new AsyncLocalStorage<TusRequestContext>();

/** Tus checksum extension: the algorithms a client may name in Upload-Checksum. */
export const CHECKSUM_ALGORITHMS = ['sha1', 'sha256', 'md5'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

/**
 * Hash state and first bytes of an upload received in one process from byte 0, so finishing
 * needs no re-read, neither to hash nor to sniff the type.
 */
interface RunningHash {
  hash: Hash;
  bytes: number;
  /** Copies of the first SNIFF_BYTES bytes. */
  head: Buffer[];
  headBytes: number;
}

/** What finishing needs of an upload this process received whole. */
export interface ReceivedUpload {
  sha256: string;
  /** The first SNIFF_BYTES bytes (all of them for a smaller file). */
  head: Buffer;
}

/**
 * Bounded, so uploads abandoned mid-way cannot grow the map without limit: at most about 40 MB
 * of hash states and heads (SNIFF_BYTES each), and only with that many uploads in progress.
 */
const MAX_RUNNING_HASHES = 10_000;

class Counter extends Transform {
  bytes = 0;

  /** `running` also gets the head: the bytes pass through from its offset on. */
  constructor(
    private readonly hashes: Hash[],
    private readonly running: RunningHash | null = null,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.bytes += chunk.length;
    for (const hash of this.hashes) hash.update(chunk);
    const running = this.running;
    if (running && running.headBytes < SNIFF_BYTES) {
      // A copy, so the head does not keep a whole chunk alive.
      const piece = Buffer.from(chunk.subarray(0, SNIFF_BYTES - running.headBytes));
      running.head.push(piece);
      running.headBytes += piece.length;
    }
    callback(null, chunk);
  }
}

/**
 * Wraps the driver's tus store (file or S3) with what the product needs on top:
 * - SHA-256 of the whole upload computed while the bytes stream in (kept per upload in memory as
 *   an optimisation only: after a restart, or when PATCHes of one upload reach different
 *   processes, finishing reads the bytes back instead);
 * - the checksum extension: a PATCH with Upload-Checksum is spooled to a temp file while hashed
 *   and reaches the store only when its checksum matches, so a damaged body never moves the
 *   offset (no driver can take back bytes it has written);
 * - no deferred length: every upload declares its size, which limits are checked against.
 */
export class ProductUploadStore extends DataStore {
  private readonly running = new Map<string, RunningHash>();

  constructor(
    readonly inner: DataStore,
    private readonly spoolDir = path.join(tmpdir(), 'raccolta-tus-spool'),
  ) {
    super();
    this.extensions = [
      ...inner.extensions.filter((e) => e !== 'creation-defer-length'),
      'checksum',
    ];
  }

  override create(upload: Upload): Promise<Upload> {
    this.running.delete(upload.id);
    return this.inner.create(upload);
  }

  override async remove(id: string): Promise<void> {
    this.running.delete(id);
    await this.inner.remove(id);
  }

  override getUpload(id: string): Promise<Upload> {
    const finished = tusRequestContext.getStore()?.finished;
    if (finished?.id === id) return Promise.resolve(finished);
    return this.inner.getUpload(id);
  }

  override declareUploadLength(): Promise<void> {
    return Promise.reject(
      new AppError('invalidInput', { message: 'Upload-Length must be declared at creation' }),
    );
  }

  override deleteExpired(): Promise<number> {
    return this.inner.deleteExpired();
  }

  override getExpiration(): number {
    return this.inner.getExpiration();
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const running = this.runningHashAt(id, offset);
    const context = tusRequestContext.getStore();
    const checksum = context?.checksum;
    const source = checksum ? await this.verified(stream, checksum) : stream;
    const counter = running ? new Counter([running.hash], running) : new Counter([]);
    let newOffset: number;
    try {
      // Linked, not piped: a failing body must fail the store's write, not leave it waiting.
      newOffset = await this.inner.write(
        link(source, counter, () => undefined),
        id,
        offset,
      );
    } catch (error) {
      this.running.delete(id);
      throw error;
    } finally {
      if (checksum) source.destroy();
      if (context) context.received = (context.received ?? 0) + counter.bytes;
    }
    if (running && offset + counter.bytes === newOffset) {
      running.bytes = newOffset;
    } else {
      this.running.delete(id);
    }
    return newOffset;
  }

  /** The SHA-256 and first bytes of an upload received whole by this process, if it was. */
  takeReceived(id: string, size: number): ReceivedUpload | null {
    const running = this.running.get(id);
    this.running.delete(id);
    if (running?.bytes !== size) return null;
    return { sha256: running.hash.digest('hex'), head: Buffer.concat(running.head) };
  }

  private runningHashAt(id: string, offset: number): RunningHash | null {
    const running = this.running.get(id);
    if (running?.bytes === offset) return running;
    this.running.delete(id);
    if (offset !== 0) return null;
    if (this.running.size >= MAX_RUNNING_HASHES) {
      const oldest = this.running.keys().next().value;
      if (oldest !== undefined) this.running.delete(oldest);
    }
    const fresh: RunningHash = { hash: createHash('sha256'), bytes: 0, head: [], headBytes: 0 };
    this.running.set(id, fresh);
    return fresh;
  }

  /** Spools the body, answers a stream of it once its checksum matched; 460 otherwise. */
  private async verified(
    stream: Readable,
    checksum: NonNullable<TusRequestContext['checksum']>,
  ): Promise<Readable> {
    await mkdir(this.spoolDir, { recursive: true });
    const spool = path.join(this.spoolDir, randomUUID());
    const hash = createHash(checksum.algorithm);
    try {
      await pipeline(stream, new Counter([hash]), createWriteStream(spool));
      if (!hash.digest().equals(checksum.expected)) {
        throw new AppError('checksumMismatch', {
          message: 'The body does not match its Upload-Checksum',
        });
      }
    } catch (error) {
      await rm(spool, { force: true });
      throw error;
    }
    const body = createReadStream(spool);
    body.once('close', () => void rm(spool, { force: true }));
    return body;
  }
}
