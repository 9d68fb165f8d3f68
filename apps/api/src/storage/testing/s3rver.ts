/**
 * A real S3 endpoint for tests: s3rver on 127.0.0.1, a free port and a temp directory, with what
 * it lacks added here (and only here, never in the product):
 * - ListParts, AbortMultipartUpload and ListMultipartUploads (see s3rver-multipart.ts), which
 *   @tus/s3-store and the driver's sweepTemp call;
 * - atomic object writes: s3rver streams a PutObject (and a completed multipart upload) straight
 *   into the final file, so readers would see half an object and concurrent writers would mix
 *   their bytes, where S3 shows the previous object or the complete new one;
 * - ranged reads as S3 answers them: s3rver takes `bytes=0-0` for the whole object and answers a
 *   range on an empty object with a broken 206 instead of 416 InvalidRange.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver, { type FilesystemStore, type S3rverObject, type StoredObject } from 's3rver';
import { multipartExtensions } from './s3rver-multipart.js';

/** s3rver's built-in account; it checks no signature but refuses unknown keys. */
export const TEST_S3_ACCESS_KEY = 'S3RVER';

export interface TestS3Env extends Record<string, string> {
  STORAGE: 's3';
  S3_BUCKET: string;
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
  S3_FORCE_PATH_STYLE: 'true';
  S3_PREFIX: string;
}

export interface TestS3 {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  region: string;
  /** Settings for loadConfig / startTestServer that point the app at this server. */
  env: TestS3Env;
  /** Where s3rver keeps buckets, objects and uploads. */
  directory: string;
  /** Stops the server (dropping kept-alive connections) and deletes its directory. */
  close(): Promise<void>;
}

export interface TestS3Options {
  bucket?: string;
  /** S3_PREFIX of `env`. */
  prefix?: string;
  /** false: answer ListMultipartUploads NotImplemented, as s3rver and some stores do. */
  listMultipartUploads?: boolean;
}

export async function startTestS3(options: TestS3Options = {}): Promise<TestS3> {
  const bucket = options.bucket ?? 'raccolta-test';
  const region = 'us-east-1';
  const directory = await mkdtemp(path.join(tmpdir(), 'raccolta-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  makeWritesAtomic(server.store);
  fixRangedReads(server.store);
  // First in the chain, so s3rver's router never answers these with MethodNotAllowed.
  server.middleware.unshift(
    multipartExtensions(server.store, {
      listMultipartUploads: options.listMultipartUploads ?? true,
    }),
  );

  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    region,
    directory,
    env: {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: TEST_S3_ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: TEST_S3_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: options.prefix ?? 'raccolta/',
    },
    async close() {
      const closing = server.close();
      // Clients keep connections alive; close() alone would wait for them to time out.
      server.httpServer.closeAllConnections();
      await closing;
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Replaces the store's putObject with one that writes a temp file beside the object and renames
 * it into place; the metadata written after it is serialised per object, so concurrent writers
 * end with one writer's bytes and metadata. An interrupted body leaves nothing.
 */
function makeWritesAtomic(store: FilesystemStore): void {
  const tails = new Map<string, Promise<unknown>>();

  async function putObject(object: S3rverObject): Promise<{ size: number; md5: string }> {
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(path.dirname(objectPath), { recursive: true });
    // Not ending in `._S3rver_object`, so listings never show it.
    const tempPath = `${objectPath}.${randomUUID()}.tmp`;
    const md5 = createHash('md5');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    const content = object.content ?? Buffer.alloc(0);
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
    try {
      await pipeline(source, meter, createWriteStream(tempPath));
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
    const digest = md5.digest('hex');
    const publish = async (): Promise<void> => {
      await rename(tempPath, objectPath);
      await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    };
    const previous = tails.get(objectPath) ?? Promise.resolve();
    const current = previous.then(publish, publish);
    tails.set(objectPath, current);
    try {
      await current;
    } finally {
      if (tails.get(objectPath) === current) tails.delete(objectPath);
    }
    return { size, md5: digest };
  }

  Object.assign(store, { putObject });
}

function fixRangedReads(store: FilesystemStore): void {
  const getObject = store.getObject.bind(store);
  async function rangedGetObject(
    bucket: string,
    key: string,
    options?: { start?: number; end?: number },
  ): Promise<StoredObject | null> {
    const ranged = options?.start !== undefined || options?.end !== undefined;
    // s3rver reads `options.end || Infinity`, losing an end of 0.
    const endsAtZero = options?.end === 0;
    const object = await getObject(bucket, key, endsAtZero ? { start: options.start } : options);
    if (object === null || !ranged) return object;
    if (object.size === 0) {
      // No content with a range is how s3rver's controller is told to answer InvalidRange.
      object.content?.destroy();
      object.content = null;
      object.range = { start: options.start ?? 0, end: options.end ?? 0 };
      return object;
    }
    if (endsAtZero && object.content) {
      object.content.destroy();
      object.content = createReadStream(store.getResourcePath(bucket, key, 'object'), {
        start: options.start ?? 0,
        end: 0,
      });
      object.range = { start: options.start ?? 0, end: 0 };
    }
    return object;
  }
  Object.assign(store, { getObject: rangedGetObject });
}
