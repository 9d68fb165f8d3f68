import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { withEncryption } from '../encrypting-storage.js';
import { StorageCipher } from '../encryption.js';
import { createLocalStorage, type LocalStorage } from '../local-storage.js';
import {
  createS3Storage,
  s3ClientConfig,
  type S3Storage,
  type S3StorageConfig,
  type S3StorageOptions,
} from '../s3-storage.js';
import type { Storage } from '../storage.js';
import { makeTempDir } from './helpers.js';
import { startTestS3, TEST_S3_ACCESS_KEY, type TestS3 } from './s3rver.js';

/** One driver instance for one test, with a view of what failed writes left behind. */
export interface DriverUnderTest {
  storage: Storage;
  /** Temp files (local) or open multipart uploads under the prefix (S3). */
  leftovers(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export interface DriverHarness {
  name: 'local' | 's3';
  /** What the tests call it; the name unless the driver is wrapped. */
  label: string;
  /** Behind the encryption layer: the contract is then run on `.enc` keys. */
  encrypted: boolean;
  /** Once per file: whatever the driver needs running. */
  start(): Promise<void>;
  stop(): Promise<void>;
  make(): Promise<DriverUnderTest>;
}

export const SIGNING_SECRET = 'test-secret-test-secret-test-secret';

export function localHarness(): DriverHarness {
  return {
    name: 'local',
    label: 'local',
    encrypted: false,
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
    async make() {
      const temp = await makeTempDir();
      const storage = createLocalStorage({
        root: path.join(temp.dir, 'files'),
        signingSecret: SIGNING_SECRET,
        publicBaseUrl: 'https://raccolta.test/api/',
      });
      return { storage, leftovers: () => localTempFiles(storage), cleanup: temp.cleanup };
    },
  };
}

export async function localTempFiles(storage: LocalStorage): Promise<string[]> {
  const dir = path.join(storage.root, '.tmp');
  return existsSync(dir) ? readdir(dir) : [];
}

export function s3Harness(): DriverHarness {
  let s3: TestS3 | undefined;
  return {
    name: 's3',
    label: 's3',
    encrypted: false,
    async start() {
      s3 = await startTestS3();
    },
    async stop() {
      await s3?.close();
    },
    make() {
      if (!s3) throw new Error('s3Harness.start() has not run');
      // A prefix per test keeps tests apart in one bucket, as installations are kept apart.
      const storage = testS3Storage(s3, { prefix: `t-${randomUUID()}/` });
      const server = s3;
      return Promise.resolve({
        storage,
        leftovers: () => openUploads(server, storage.prefix),
        cleanup: () => Promise.resolve(),
      });
    },
  };
}

/** The same driver behind the encryption layer (`encrypting-storage.ts`), with a test key. */
export function encryptedHarness(plain: DriverHarness): DriverHarness {
  return {
    ...plain,
    label: `${plain.name} encrypted`,
    encrypted: true,
    async make() {
      const made = await plain.make();
      return {
        ...made,
        storage: withEncryption(made.storage, new StorageCipher(TEST_ENCRYPTION_KEY), {
          signingSecret: SIGNING_SECRET,
          publicBaseUrl: 'https://raccolta.test/api',
          clock: () => new Date(),
        }),
      };
    },
  };
}

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 0x5a);

export function testS3Config(s3: TestS3, prefix = ''): S3StorageConfig {
  return {
    kind: 's3',
    bucket: s3.bucket,
    region: s3.region,
    endpoint: s3.endpoint,
    accessKeyId: TEST_S3_ACCESS_KEY,
    secretAccessKey: TEST_S3_ACCESS_KEY,
    forcePathStyle: true,
    prefix,
  };
}

export function testS3Storage(
  s3: TestS3,
  options: Partial<Omit<S3StorageOptions, 'client'>> = {},
): S3Storage {
  return createS3Storage({
    bucket: s3.bucket,
    client: s3ClientConfig(testS3Config(s3)),
    ...options,
  });
}

/** A client of its own, for looking at the bucket behind the driver's back. */
export function testS3Client(s3: TestS3): S3Client {
  return new S3Client(s3ClientConfig(testS3Config(s3)));
}

export async function openUploads(s3: TestS3, prefix: string): Promise<string[]> {
  const client = testS3Client(s3);
  try {
    const out = await client.send(
      new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: prefix }),
    );
    return (out.Uploads ?? []).map((upload) => upload.Key ?? '');
  } finally {
    client.destroy();
  }
}
