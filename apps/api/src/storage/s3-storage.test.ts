/**
 * The S3 driver's own ground, on a real S3 server (s3rver): prefixes, presigned URLs, multipart
 * uploads and their cleanup. The contract it shares with the local driver is in
 * storage-contract.test.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ClientConfig, type S3Storage } from './s3-storage.js';
import { StorageTooLargeError } from './storage.js';
import { openUploads, testS3Client, testS3Config, testS3Storage } from './testing/drivers.js';
import { failingStream, readAll, sha256 } from './testing/helpers.js';
import { startTestS3, type TestS3 } from './testing/s3rver.js';

const MIB = 1024 * 1024;
const KEY = 'teams/t1/files/f1';

let s3: TestS3;
let client: S3Client;

beforeAll(async () => {
  s3 = await startTestS3();
  client = testS3Client(s3);
});

afterAll(async () => {
  client.destroy();
  await s3.close();
});

function freshStorage(options: Parameters<typeof testS3Storage>[1] = {}): S3Storage {
  return testS3Storage(s3, { prefix: `s3-${randomUUID()}/`, ...options });
}

async function exists(objectKey: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: objectKey }));
    return true;
  } catch {
    return false;
  }
}

describe('s3ClientConfig', () => {
  it('passes credentials only as a pair and leaves checksums to operations that need them', () => {
    const config = testS3Config(s3, 'p/');
    expect(s3ClientConfig(config)).toEqual({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    const aws = s3ClientConfig({
      kind: 's3',
      bucket: 'b',
      region: 'eu-south-1',
      forcePathStyle: false,
      prefix: '',
    });
    expect(aws).not.toHaveProperty('endpoint');
    expect(aws).not.toHaveProperty('credentials');
  });
});

describe('prefix', () => {
  it('stores every key under the prefix, apart from other installations', async () => {
    const one = freshStorage();
    const other = freshStorage();
    await one.put(KEY, Readable.from([Buffer.from('mine')]));

    expect(await exists(`${one.prefix}${KEY}`)).toBe(true);
    expect(await exists(KEY)).toBe(false);
    expect(await other.stat(KEY)).toBeNull();
    await other.delete(KEY);
    expect((await readAll(await one.get(KEY))).toString()).toBe('mine');
  });
});

describe('multipart puts', () => {
  it('stores a body of several parts with its content type', async () => {
    const storage = freshStorage({ partSize: 5 * MIB });
    const data = randomBytes(12 * MIB + 123);
    const result = await storage.put(KEY, Readable.from([data]), { contentType: 'video/mp4' });

    expect(result).toEqual({ key: KEY, size: data.length, sha256: sha256(data) });
    expect(await storage.stat(KEY)).toEqual({
      key: KEY,
      size: data.length,
      contentType: 'video/mp4',
    });
    expect(sha256(await readAll(await storage.get(KEY)))).toBe(sha256(data));
    expect(await openUploads(s3, storage.prefix)).toEqual([]);
  });

  it('aborts past maxBytes: no object, no open upload, the previous object intact', async () => {
    const storage = freshStorage({ partSize: 5 * MIB });
    const previous = randomBytes(1000);
    await storage.put(KEY, Readable.from([previous]));

    const put = storage.put(KEY, chunked(randomBytes(16 * MIB)), { maxBytes: 11 * MIB });
    await expect(put).rejects.toBeInstanceOf(StorageTooLargeError);
    expect(await openUploads(s3, storage.prefix)).toEqual([]);
    expect(await readAll(await storage.get(KEY))).toEqual(previous);

    await storage.delete(KEY);
    await expect(
      storage.put(KEY, chunked(randomBytes(16 * MIB)), { maxBytes: 11 * MIB }),
    ).rejects.toBeInstanceOf(StorageTooLargeError);
    expect(await storage.stat(KEY)).toBeNull();
  });

  it('fails with the body error after parts were sent, aborting the upload', async () => {
    const storage = freshStorage({ partSize: 5 * MIB });
    const failure = new Error('connection reset by client');
    const put = storage.put(KEY, failingStream(randomBytes(11 * MIB), failure));

    await expect(put).rejects.toBe(failure);
    expect(await storage.stat(KEY)).toBeNull();
    expect(await openUploads(s3, storage.prefix)).toEqual([]);
  });

  it('fails with the store error when the bucket cannot take it, releasing the body', async () => {
    const storage = testS3Storage(s3, { bucket: 'no-such-bucket' });
    const body = chunked(randomBytes(MIB));
    await expect(storage.put(KEY, body)).rejects.toMatchObject({ name: 'NoSuchBucket' });
    expect(body.destroyed).toBe(true);
  });

  it('refuses a part size S3 would refuse', () => {
    expect(() => freshStorage({ partSize: MIB })).toThrow(RangeError);
  });
});

describe('signedUrl', () => {
  const data = randomBytes(5000);

  async function stored(): Promise<S3Storage> {
    const storage = freshStorage();
    await storage.put(KEY, Readable.from([data]), { contentType: 'text/html' });
    return storage;
  }

  it('downloads the bytes over plain HTTP with the download headers', async () => {
    const storage = await stored();
    const url = await storage.signedUrl(KEY, {
      expiresInSeconds: 300,
      fileName: 'Relazione è "finale".pdf',
      contentType: 'application/pdf',
      disposition: 'inline',
    });
    const res = await fetch(url);

    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(data);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(
      `inline; filename="Relazione e _finale_.pdf"; filename*=UTF-8''Relazione%20%C3%A8%20%22finale%22.pdf`,
    );
    expect(res.headers.get('cache-control')).toBe('private, max-age=300');
  });

  it('never serves a stored or given active type inline', async () => {
    const storage = await stored();
    const asHtml = await fetch(
      await storage.signedUrl(KEY, {
        expiresInSeconds: 60,
        contentType: 'text/html',
        disposition: 'inline',
      }),
    );
    expect(asHtml.headers.get('content-disposition')).toBe('attachment');
    await asHtml.arrayBuffer();

    const untyped = await fetch(
      await storage.signedUrl(KEY, { expiresInSeconds: 60, fileName: 'x.html' }),
    );
    expect(untyped.headers.get('content-type')).toBe('application/octet-stream');
    expect(untyped.headers.get('content-disposition')).toBe('attachment; filename="x.html"');
    await untyped.arrayBuffer();
  });

  it('is refused once expired', async () => {
    const signedAt = new Date(Date.now() - 2 * 3600_000);
    const storage = freshStorage({ clock: () => signedAt });
    await storage.put(KEY, Readable.from([data]));

    const res = await fetch(await storage.signedUrl(KEY, { expiresInSeconds: 3600 }));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Request has expired');
  });

  it('refuses a lifetime SigV4 cannot sign', async () => {
    const storage = freshStorage();
    await expect(
      storage.signedUrl(KEY, { expiresInSeconds: 8 * 24 * 3600 }),
    ).rejects.toBeInstanceOf(RangeError);
  });
});

describe('health', () => {
  it('fails when the bucket does not exist', async () => {
    const storage = testS3Storage(s3, { bucket: 'no-such-bucket' });
    await expect(storage.health()).rejects.toThrow();
  });
});

describe('sweepTemp', () => {
  async function startUpload(objectKey: string): Promise<string> {
    const { UploadId } = await client.send(
      new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: objectKey }),
    );
    await client.send(
      new UploadPartCommand({
        Bucket: s3.bucket,
        Key: objectKey,
        UploadId,
        PartNumber: 1,
        Body: randomBytes(1000),
      }),
    );
    return UploadId ?? '';
  }

  it('aborts the stale uploads a put left under the prefix, and nothing else', async () => {
    const prefix = `sweep-${randomUUID()}/`;
    await startUpload(`${prefix}teams/t1/files/crashed`);
    await startUpload(`${prefix}.uploads/resumable`);
    await startUpload(`elsewhere-${randomUUID()}/teams/t1/files/f`);

    const now = Date.now();
    const early = freshStorage({ prefix, clock: () => new Date(now) });
    expect(await early.sweepTemp(3600_000)).toBe(0);

    const later = freshStorage({ prefix, clock: () => new Date(now + 2 * 3600_000) });
    expect(await later.sweepTemp(3600_000)).toBe(1);
    expect(await openUploads(s3, prefix)).toEqual([`${prefix}.uploads/resumable`]);
  });

  it('finds nothing on a store without ListMultipartUploads', async () => {
    const bare = await startTestS3({ listMultipartUploads: false });
    try {
      const storage = testS3Storage(bare, { prefix: 'p/' });
      expect(await storage.sweepTemp(0)).toBe(0);
    } finally {
      await bare.close();
    }
  });
});

/** Many small chunks, as a request body arrives. */
function chunked(data: Buffer, size = 64 * 1024): Readable {
  return Readable.from(
    Array.from({ length: Math.ceil(data.length / size) }, (_, i) =>
      data.subarray(i * size, (i + 1) * size),
    ),
  );
}
