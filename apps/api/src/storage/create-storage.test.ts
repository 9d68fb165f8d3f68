import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { createStorage } from './create-storage.js';
import { makeTempDir, readAll } from './testing/helpers.js';
import { startTestS3, type TestS3 } from './testing/s3rver.js';

const SECRET = 'x'.repeat(32);
const clock = (): number => Date.now();

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let s3: TestS3;

beforeAll(async () => {
  temp = await makeTempDir();
  s3 = await startTestS3({ prefix: 'install-a' });
});

afterAll(async () => {
  await s3.close();
  await temp.cleanup();
});

describe('createStorage', () => {
  it('builds the local driver on DATA_DIR by default', async () => {
    const storage = createStorage(loadConfig({ APP_SECRET: SECRET, DATA_DIR: temp.dir }), clock);
    expect(storage).toMatchObject({ kind: 'local', root: `${temp.dir}/files` });
    await storage.health();
  });

  it('builds the S3 driver from the S3_* settings', async () => {
    const config = loadConfig({ APP_SECRET: SECRET, DATA_DIR: temp.dir, ...s3.env });
    const storage = createStorage(config, clock);
    expect(storage).toMatchObject({ kind: 's3', bucket: s3.bucket, prefix: 'install-a/' });

    await storage.health();
    await storage.put('a/b', Readable.from([Buffer.from('via config')]));
    expect((await readAll(await storage.get('a/b'))).toString()).toBe('via config');
    expect(await storage.signedUrl('a/b', { expiresInSeconds: 60 })).toMatch(
      new RegExp(`^${s3.endpoint}/${s3.bucket}/install-a/a/b\\?`),
    );
  });

  it('reads what the configured key wrote before a rotation once it is a previous key', async () => {
    const [first, second] = [
      Buffer.alloc(32, 3).toString('hex'),
      Buffer.alloc(32, 4).toString('hex'),
    ];
    const base = { APP_SECRET: SECRET, DATA_DIR: temp.dir };
    const before = createStorage(loadConfig({ ...base, STORAGE_ENCRYPTION_KEY: first }), clock);
    const key = 'teams/t/collections/c/rotated/original.enc';
    await before.put(key, Readable.from([Buffer.from('written before the rotation')]));

    const withoutOld = createStorage(
      loadConfig({ ...base, STORAGE_ENCRYPTION_KEY: second }),
      clock,
    );
    await expect(withoutOld.get(key)).rejects.toThrow(/STORAGE_ENCRYPTION_PREVIOUS_KEYS/);
    const rotated = createStorage(
      loadConfig({
        ...base,
        STORAGE_ENCRYPTION_KEY: second,
        STORAGE_ENCRYPTION_PREVIOUS_KEYS: first,
      }),
      clock,
    );
    expect((await readAll(await rotated.get(key))).toString()).toBe('written before the rotation');
  });
});
