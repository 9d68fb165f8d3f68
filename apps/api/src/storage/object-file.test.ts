import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { LocalStorage } from './local-storage.js';
import { objectFile, scratchDirOf, sweepScratch } from './object-file.js';
import { sweepStorageTempJob } from './sweep-temp.job.js';
import { StorageNotFoundError, StorageTooLargeError, type Storage } from './storage.js';
import {
  encryptedHarness,
  localHarness,
  localTempFiles,
  s3Harness,
  type DriverUnderTest,
} from './testing/drivers.js';
import { makeTempDir, sha256 } from './testing/helpers.js';

const PLAIN_KEY =
  'teams/0190a5a0-0000-7000-8000-000000000001/files/0190a5a0-0000-7000-8000-000000000002';

describe.each([
  localHarness(),
  s3Harness(),
  encryptedHarness(localHarness()),
  encryptedHarness(s3Harness()),
])('objectFile on the $label driver', (harness) => {
  const KEY = harness.encrypted ? `${PLAIN_KEY}.enc` : PLAIN_KEY;
  // The local driver hands out a link to the object itself, unless what is on disk is ciphertext.
  const linked = harness.name === 'local' && !harness.encrypted;
  let made: DriverUnderTest;
  let storage: Storage;
  let scratch: Awaited<ReturnType<typeof makeTempDir>>;
  let scratchDir: string;

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());
  beforeEach(async () => {
    made = await harness.make();
    storage = made.storage;
    scratch = await makeTempDir();
    scratchDir = scratchDirOf(scratch.dir);
  });
  afterEach(async () => {
    await made.cleanup();
    await scratch.cleanup();
  });

  const scratchFiles = async () => (existsSync(scratchDir) ? readdir(scratchDir) : []);
  /** What the local driver keeps in its temp folder (reading links), none on S3. */
  const driverTemp = async () =>
    harness.name === 'local' ? localTempFiles(storage as LocalStorage) : [];

  it('gives the plain bytes as a file of its own, kept when the key is replaced or deleted', async () => {
    const data = randomBytes(1_000_000);
    await storage.put(KEY, Readable.from([data]));
    const file = await objectFile(storage, KEY, { scratchDir, maxBytes: data.length });
    try {
      expect(file.size).toBe(data.length);
      expect(sha256(await readFile(file.path))).toBe(sha256(data));
      if (linked) {
        expect(path.relative(scratchDir, file.path).startsWith('..')).toBe(true);
        expect(await scratchFiles()).toEqual([]);
      } else {
        expect(path.dirname(file.path)).toBe(scratchDir);
        // Deciphered bytes of a premium file: this user's only.
        expect((await stat(file.path)).mode & 0o777).toBe(0o600);
        expect((await stat(scratchDir)).mode & 0o777).toBe(0o700);
      }
      await storage.put(KEY, Readable.from([Buffer.from('replaced')]));
      expect(sha256(await readFile(file.path))).toBe(sha256(data));
      await storage.delete(KEY);
      expect(sha256(await readFile(file.path))).toBe(sha256(data));
    } finally {
      await file.release();
    }
    expect(existsSync(file.path)).toBe(false);
    expect(await scratchFiles()).toEqual([]);
    expect(await driverTemp()).toEqual([]);
  });

  it('answers StorageNotFoundError for a missing object and leaves nothing behind', async () => {
    await expect(objectFile(storage, KEY, { scratchDir })).rejects.toBeInstanceOf(
      StorageNotFoundError,
    );
    expect(await scratchFiles()).toEqual([]);
    expect(await driverTemp()).toEqual([]);
  });

  it('refuses an object larger than maxBytes and leaves nothing behind', async () => {
    await storage.put(KEY, Readable.from([randomBytes(100_001)]));
    const err: unknown = await objectFile(storage, KEY, { scratchDir, maxBytes: 100_000 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StorageTooLargeError);
    expect(await scratchFiles()).toEqual([]);
    expect(await driverTemp()).toEqual([]);
  });

  it('gives nothing once the reader has given up', async () => {
    await storage.put(KEY, Readable.from([randomBytes(1000)]));
    const controller = new AbortController();
    controller.abort(new Error('lease lost'));
    await expect(
      objectFile(storage, KEY, { scratchDir, signal: controller.signal }),
    ).rejects.toThrow('lease lost');
    expect(await scratchFiles()).toEqual([]);
    expect(await driverTemp()).toEqual([]);
  });
});

describe('sweepScratch', () => {
  it('removes what is older than the age and keeps the rest', async () => {
    const temp = await makeTempDir();
    try {
      const dir = scratchDirOf(temp.dir);
      expect(await sweepScratch(dir, 60_000, Date.now())).toBe(0);
      await mkdir(dir);
      await writeFile(path.join(dir, 'old.part'), 'old');
      await writeFile(path.join(dir, 'new.part'), 'new');
      const hourAgo = new Date(Date.now() - 3_600_000);
      await utimes(path.join(dir, 'old.part'), hourAgo, hourAgo);
      expect(await sweepScratch(dir, 60_000, Date.now())).toBe(1);
      expect(await readdir(dir)).toEqual(['new.part']);
    } finally {
      await temp.cleanup();
    }
  });
});

describe('local reading links', () => {
  it('are swept by their folder’s age, not the object’s', async () => {
    const made = await localHarness().make();
    try {
      const storage = made.storage as LocalStorage;
      const key = 'teams/t/original';
      await storage.put(key, Readable.from([Buffer.from('bytes')]));
      const objectPath = path.join(storage.root, 'teams', 't', 'original');
      const dayAgo = new Date(Date.now() - 86_400_000);
      await utimes(objectPath, dayAgo, dayAgo);
      const file = await storage.fileForReading(key);
      expect(file).not.toBeNull();
      // An hour: the object is a day old, the reading is new.
      expect(await storage.sweepTemp(3_600_000)).toBe(0);
      expect(await readFile(file?.path ?? '', 'utf8')).toBe('bytes');
      await file?.release();
      expect(await localTempFiles(storage)).toEqual([]);
    } finally {
      await made.cleanup();
    }
  });
});

describe('the storage temp sweep', () => {
  it('removes what a crash left in DATA_DIR/tmp, at the same age as storage leftovers', async () => {
    const temp = await makeTempDir();
    try {
      const config = loadConfig({ DATA_DIR: temp.dir, APP_SECRET: 'x'.repeat(40) });
      const made = await localHarness().make();
      const dir = scratchDirOf(temp.dir);
      await mkdir(dir);
      const now = Date.now();
      for (const [name, ageMs] of [
        ['crashed.part', 3 * 86_400_000],
        ['reading.part', 60_000],
      ] as const) {
        await writeFile(path.join(dir, name), name);
        const at = new Date(now - ageMs);
        await utimes(path.join(dir, name), at, at);
      }
      const run = sweepStorageTempJob.prepare({ olderThanMs: 86_400_000 });
      await run(
        { storage: made.storage, config, clock: () => now },
        {
          id: 'manual',
          queue: sweepStorageTempJob.queue,
          attempt: 1,
          maxAttempts: 3,
          createdAt: now,
          signal: new AbortController().signal,
        },
      );
      expect(await readdir(dir)).toEqual(['reading.part']);
      await made.cleanup();
    } finally {
      await temp.cleanup();
    }
  });
});
