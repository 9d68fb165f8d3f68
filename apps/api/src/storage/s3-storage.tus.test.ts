/**
 * @tus/s3-store on the driver's client settings, against the harness: resumable uploads must
 * survive a restart (a new S3Store finds its offset through ListParts) and end as exact bytes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { S3Store } from '@tus/s3-store';
import { Upload } from '@tus/utils';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { s3ClientConfig } from './s3-storage.js';
import { openUploads, testS3Client, testS3Config } from './testing/drivers.js';
import { readAll, sha256 } from './testing/helpers.js';
import { startTestS3, type TestS3 } from './testing/s3rver.js';

const PART = 5 * 1024 * 1024;

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

/** A store as a freshly started process would build it: nothing cached. */
function newStore(): S3Store {
  return new S3Store({
    partSize: PART,
    s3ClientConfig: { bucket: s3.bucket, ...s3ClientConfig(testS3Config(s3)) },
  });
}

async function objectBytes(key: string): Promise<Buffer> {
  const out = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  if (!(out.Body instanceof Readable)) throw new Error('no body');
  return readAll(out.Body);
}

it('resumes from a new store after each write and completes with the exact bytes', async () => {
  const data = randomBytes(2 * PART + 777_777);
  const id = `raccolta/.uploads/${randomUUID()}`;
  await newStore().create(new Upload({ id, size: data.length, offset: 0 }));

  // Exactly one part: after a restart the offset can only come from ListParts.
  expect(await newStore().write(Readable.from([data.subarray(0, PART)]), id, 0)).toBe(PART);
  expect((await newStore().getUpload(id)).offset).toBe(PART);

  // A part and a remainder too small to be one, which S3Store keeps as a `.part` object.
  const second = 2 * PART - 1000;
  const written = await newStore().write(Readable.from([data.subarray(PART, second)]), id, PART);
  expect(written).toBe(second);
  const resumed = await newStore().getUpload(id);
  expect(resumed).toMatchObject({ offset: second, size: data.length });

  expect(await newStore().write(Readable.from([data.subarray(second)]), id, second)).toBe(
    data.length,
  );

  expect(sha256(await objectBytes(id))).toBe(sha256(data));
  // Completed: ListParts answers NoSuchUpload, which S3Store reads as "all bytes are in".
  expect((await newStore().getUpload(id)).offset).toBe(data.length);
  expect(await openUploads(s3, id)).toEqual([]);
});

it('removes an unfinished upload with its multipart upload', async () => {
  const id = `raccolta/.uploads/${randomUUID()}`;
  const store = newStore();
  await store.create(new Upload({ id, size: 3 * PART, offset: 0 }));
  await store.write(Readable.from([randomBytes(PART)]), id, 0);
  expect(await openUploads(s3, id)).toEqual([id]);

  await newStore().remove(id);
  expect(await openUploads(s3, id)).toEqual([]);
  await expect(newStore().getUpload(id)).rejects.toMatchObject({ status_code: 404 });
});
