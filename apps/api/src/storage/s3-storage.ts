import { createHash } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config/config.js';
import { downloadRepresentation } from './download-headers.js';
import {
  assertValidKey,
  assertValidMaxBytes,
  assertValidRange,
  isValidKey,
  StorageNotFoundError,
  StorageTooLargeError,
  type ByteRange,
  type ListedObject,
  type ObjectInfo,
  type PutOptions,
  type PutResult,
  type SignedUrlOptions,
  type Storage,
} from './storage.js';

export type S3StorageConfig = Extract<Config['storage'], { kind: 's3' }>;

export interface S3StorageOptions {
  bucket: string;
  /** Prepended verbatim to every key, e.g. `raccolta/`; empty for the whole bucket. */
  prefix?: string;
  /** Usually `s3ClientConfig(config.storage)`. */
  client: S3ClientConfig;
  clock?: () => Date;
  /** Bytes per multipart part (at least 5 MiB, S3's minimum). */
  partSize?: number;
  /** Parts uploaded at once; memory per put is about (queueSize + 1) × partSize. */
  queueSize?: number;
}

export interface S3Storage extends Storage {
  readonly kind: 's3';
  readonly bucket: string;
  readonly prefix: string;
}

const MIB = 1024 * 1024;
/** SigV4 refuses presigned URLs valid for longer than a week. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/**
 * The client settings both this driver and @tus/s3-store's S3Store need. Checksums only when an
 * operation demands them: the SDK's default (a CRC trailer on every upload) is refused by many
 * S3-compatible stores and would make streamed bodies chunk-encoded.
 */
export function s3ClientConfig(config: S3StorageConfig): S3ClientConfig {
  return {
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.accessKeyId && config.secretAccessKey
      ? {
          credentials: {
            accessKeyId: config.accessKeyId,
            secretAccessKey: config.secretAccessKey,
          },
        }
      : {}),
  };
}

export function createS3Storage(options: S3StorageOptions): S3Storage {
  const { bucket } = options;
  const prefix = options.prefix ?? '';
  const clock = options.clock ?? (() => new Date());
  const partSize = options.partSize ?? 8 * MIB;
  const queueSize = options.queueSize ?? 2;
  if (partSize < 5 * MIB) throw new RangeError(`partSize must be at least 5 MiB, got ${partSize}`);
  const client = new S3Client(options.client);

  function objectKey(key: string): string {
    assertValidKey(key);
    return prefix + key;
  }

  async function put(key: string, body: Readable, opts: PutOptions = {}): Promise<PutResult> {
    const Key = objectKey(key);
    const { maxBytes, contentType } = opts;
    assertValidMaxBytes(maxBytes);

    const hash = opts.digest === false ? null : createHash('sha256');
    let size = 0;
    let tooLarge: StorageTooLargeError | undefined;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (maxBytes !== undefined && size > maxBytes) {
          tooLarge = new StorageTooLargeError(maxBytes);
          callback(tooLarge);
          return;
        }
        hash?.update(chunk);
        callback(null, chunk);
      },
    });
    // pipeline, not pipe: a failing body fails the meter, and so the upload, with its own error.
    const source = pipeline(body, meter, () => undefined);

    // Nothing is visible before PutObject or CompleteMultipartUpload succeeds, and Upload aborts
    // the multipart upload when the source fails, so a failed put leaves no object behind.
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key, Body: source, ContentType: contentType },
      partSize,
      queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The abort that follows a source failure may fail too; the caller needs the cause.
      const failure: unknown = tooLarge ?? body.errored ?? error;
      body.destroy();
      throw failure;
    }
    return { key, size, sha256: hash?.digest('hex') ?? null };
  }

  async function get(key: string, range?: ByteRange): Promise<Readable> {
    const Key = objectKey(key);
    if (range) assertValidRange(range);
    try {
      const out = await client.send(
        new GetObjectCommand({
          Bucket: bucket,
          Key,
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
      if (!(out.Body instanceof Readable)) throw new Error('GetObject returned no stream');
      return out.Body;
    } catch (error) {
      if (isMissingObject(error)) throw new StorageNotFoundError(key, { cause: error });
      // S3 calls a range starting at the end unsatisfiable; the contract reads it as empty.
      if (range && statusOf(error) === 416) {
        if ((await statObject(key)) === null) throw new StorageNotFoundError(key, { cause: error });
        return Readable.from([]);
      }
      throw error;
    }
  }

  async function statObject(key: string): Promise<ObjectInfo | null> {
    const Key = objectKey(key);
    try {
      const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
      return {
        key,
        size: out.ContentLength ?? 0,
        ...(out.ContentType ? { contentType: out.ContentType } : {}),
      };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async function deleteObject(key: string): Promise<void> {
    const Key = objectKey(key);
    try {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }));
    } catch (error) {
      // S3 answers 204 for a missing key; some compatible stores answer NoSuchKey.
      if (!isMissingObject(error)) throw error;
    }
  }

  async function signedUrl(key: string, opts: SignedUrlOptions): Promise<string> {
    const Key = objectKey(key);
    if (!Number.isFinite(opts.expiresInSeconds) || opts.expiresInSeconds <= 0) {
      throw new RangeError(`expiresInSeconds must be positive, got ${opts.expiresInSeconds}`);
    }
    const expiresIn = Math.ceil(opts.expiresInSeconds);
    if (expiresIn > MAX_PRESIGN_SECONDS) {
      throw new RangeError(`expiresInSeconds must be at most ${MAX_PRESIGN_SECONDS}`);
    }
    // The type is always set: S3 cannot add nosniff, so a stored type nobody vetted never shows.
    const shown = downloadRepresentation(opts);
    const command = new GetObjectCommand({
      Bucket: bucket,
      Key,
      ResponseContentType: shown.contentType,
      ResponseContentDisposition: shown.contentDisposition,
      ResponseCacheControl: `private, max-age=${expiresIn}`,
    });
    return getSignedUrl(client, command, { expiresIn, signingDate: clock() });
  }

  async function health(): Promise<void> {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
  }

  /**
   * Aborts multipart uploads a crashed put left under the prefix. Only keys put could have
   * started are touched: uploads kept under a dot segment (tus) expire by their own rules.
   */
  async function sweepTemp(olderThanMs: number): Promise<number> {
    const cutoff = clock().getTime() - olderThanMs;
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    for (;;) {
      let page;
      try {
        page = await client.send(
          new ListMultipartUploadsCommand({
            Bucket: bucket,
            Prefix: prefix || undefined,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
      } catch (error) {
        // Some S3-compatible stores have no ListMultipartUploads; they then keep no leftovers
        // we could find, which is no failure of the sweep.
        if (isUnsupported(error)) return removed;
        throw error;
      }
      for (const upload of page.Uploads ?? []) {
        const { Key, UploadId, Initiated } = upload;
        if (Key === undefined || UploadId === undefined || Initiated === undefined) continue;
        if (!Key.startsWith(prefix) || !isValidKey(Key.slice(prefix.length))) continue;
        if (Initiated.getTime() >= cutoff) continue;
        try {
          await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId }));
          removed++;
        } catch (error) {
          // Completed or swept by another process since the listing.
          if (!(error instanceof S3ServiceException && error.name === 'NoSuchUpload')) throw error;
        }
      }
      if (!page.IsTruncated) return removed;
      keyMarker = page.NextKeyMarker;
      uploadIdMarker = page.NextUploadIdMarker;
    }
  }

  /**
   * ListObjectsV2, a page (up to 1,000 keys) at a time. Objects whose names are not keys (a dot
   * segment, an empty segment) are not this driver's and are skipped, as sweepTemp skips them.
   */
  async function* list(keyPrefix = ''): AsyncGenerator<ListedObject> {
    let token: string | undefined;
    for (;;) {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: prefix + keyPrefix || undefined,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        const { Key } = object;
        if (Key === undefined || !Key.startsWith(prefix)) continue;
        const key = Key.slice(prefix.length);
        if (!isValidKey(key)) continue;
        yield { key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      if (!page.IsTruncated || !page.NextContinuationToken) return;
      token = page.NextContinuationToken;
    }
  }

  return {
    kind: 's3',
    bucket,
    prefix,
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

function statusOf(error: unknown): number | undefined {
  return error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}

/** HEAD answers carry no body, so a missing object there is a bare 404 named NotFound. */
function isMissingObject(error: unknown): boolean {
  return (
    error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}

function isUnsupported(error: unknown): boolean {
  const status = statusOf(error);
  return status === 501 || status === 405;
}
