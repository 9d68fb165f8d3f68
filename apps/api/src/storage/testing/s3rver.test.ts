/** The harness answers what it adds to s3rver as S3 does, pagination included. */
import { createHash, randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testS3Client } from './drivers.js';
import { startTestS3, type TestS3 } from './s3rver.js';

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

function md5Hex(data: Buffer | undefined): string {
  return createHash('md5')
    .update(data ?? '')
    .digest('hex');
}

async function createUpload(key: string): Promise<string> {
  const out = await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }));
  return out.UploadId ?? '';
}

describe('ListParts', () => {
  it('lists completed parts in order, a page at a time', async () => {
    const key = 'list-parts/object';
    const uploadId = await createUpload(key);
    const bodies = [randomBytes(100), randomBytes(200), randomBytes(300)];
    // Out of order, as concurrent part uploads finish.
    for (const number of [3, 1, 2]) {
      await client.send(
        new UploadPartCommand({
          Bucket: s3.bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: number,
          Body: bodies[number - 1],
        }),
      );
    }
    const input = { Bucket: s3.bucket, Key: key, UploadId: uploadId };

    const first = await client.send(new ListPartsCommand({ ...input, MaxParts: 2 }));
    expect(first.Parts?.map((p) => [p.PartNumber, p.Size, p.ETag])).toEqual([
      [1, 100, `"${md5Hex(bodies[0])}"`],
      [2, 200, `"${md5Hex(bodies[1])}"`],
    ]);
    expect(first.IsTruncated).toBe(true);
    expect(first.NextPartNumberMarker).toBe('2');
    expect(first.Parts?.[0]?.LastModified).toBeInstanceOf(Date);

    const rest = await client.send(
      new ListPartsCommand({ ...input, PartNumberMarker: first.NextPartNumberMarker }),
    );
    expect(rest.Parts?.map((p) => p.PartNumber)).toEqual([3]);
    expect(rest.IsTruncated).toBe(false);
  });

  it('answers NoSuchUpload for an unknown, aborted or foreign upload', async () => {
    const key = 'list-parts/aborted';
    const uploadId = await createUpload(key);
    await expect(
      client.send(
        new ListPartsCommand({ Bucket: s3.bucket, Key: 'other/key', UploadId: uploadId }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });

    await client.send(
      new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId: uploadId }),
    );
    for (const id of [uploadId, 'f00d', '../../etc']) {
      await expect(
        client.send(new ListPartsCommand({ Bucket: s3.bucket, Key: key, UploadId: id })),
      ).rejects.toMatchObject({ name: 'NoSuchUpload' });
    }
    await expect(
      client.send(
        new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId: uploadId }),
      ),
    ).rejects.toMatchObject({ name: 'NoSuchUpload' });
  });
});

describe('ListMultipartUploads', () => {
  it('lists open uploads under a prefix, a page at a time', async () => {
    const keys = ['lmu/b', 'lmu/a', 'lmu/c'];
    for (const key of keys) await createUpload(key);
    await createUpload('elsewhere/x');

    const first = await client.send(
      new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: 'lmu/', MaxUploads: 2 }),
    );
    expect(first.Uploads?.map((u) => u.Key)).toEqual(['lmu/a', 'lmu/b']);
    expect(first.Uploads?.[0]?.Initiated).toBeInstanceOf(Date);
    expect(first.IsTruncated).toBe(true);

    const rest = await client.send(
      new ListMultipartUploadsCommand({
        Bucket: s3.bucket,
        Prefix: 'lmu/',
        KeyMarker: first.NextKeyMarker,
        UploadIdMarker: first.NextUploadIdMarker,
      }),
    );
    expect(rest.Uploads?.map((u) => u.Key)).toEqual(['lmu/c']);
    expect(rest.IsTruncated).toBe(false);
  });
});

describe('objects', () => {
  it('reads a range ending at byte 0 as one byte', async () => {
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'range/x', Body: Buffer.from('abc') }),
    );
    const out = await client.send(
      new GetObjectCommand({ Bucket: s3.bucket, Key: 'range/x', Range: 'bytes=0-0' }),
    );
    expect(await out.Body?.transformToString()).toBe('a');
    expect(out.ContentRange).toBe('bytes 0-0/3');
  });

  it('refuses a range on an empty object as InvalidRange', async () => {
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: 'range/empty', Body: Buffer.alloc(0) }),
    );
    await expect(
      client.send(
        new GetObjectCommand({ Bucket: s3.bucket, Key: 'range/empty', Range: 'bytes=0-' }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidRange' });
  });
});
