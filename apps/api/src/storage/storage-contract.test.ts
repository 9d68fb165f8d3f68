/**
 * What every storage driver promises (storage.ts), run against each of them: the local driver
 * on a temp directory and the S3 driver on a real S3 server (s3rver). Driver-specific behaviour
 * (files on disk, presigned URLs, multipart uploads) is tested beside each driver.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  StorageInvalidKeyError,
  StorageNotFoundError,
  StorageRangeError,
  StorageTooLargeError,
  type Storage,
} from './storage.js';
import {
  encryptedHarness,
  localHarness,
  s3Harness,
  type DriverUnderTest,
} from './testing/drivers.js';
import { failingStream, readAll, sha256, slowStream } from './testing/helpers.js';

const PLAIN_KEY =
  'teams/0190a5a0-0000-7000-8000-000000000001/files/0190a5a0-0000-7000-8000-000000000002';

describe.each([
  localHarness(),
  s3Harness(),
  encryptedHarness(localHarness()),
  encryptedHarness(s3Harness()),
])('$label driver', (harness) => {
  // Behind the encryption layer the same promises hold for what it encrypts.
  const KEY = harness.encrypted ? `${PLAIN_KEY}.enc` : PLAIN_KEY;
  let made: DriverUnderTest;
  let storage: Storage;

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());

  beforeEach(async () => {
    made = await harness.make();
    storage = made.storage;
  });

  afterEach(() => made.cleanup());

  it('reports its kind', () => {
    expect(storage.kind).toBe(harness.name);
  });

  describe('put and get', () => {
    it('round-trips the bytes and reports size and sha256', async () => {
      const data = randomBytes(300_000);
      const result = await storage.put(KEY, slowStream(data, 65_536));

      expect(result).toEqual({ key: KEY, size: data.length, sha256: sha256(data) });
      expect(await readAll(await storage.get(KEY))).toEqual(data);
      expect(await storage.stat(KEY)).toMatchObject({ key: KEY, size: data.length });
      expect(await made.leftovers()).toEqual([]);
    });

    it('computes no SHA-256 when asked for none, and stores the same bytes', async () => {
      const data = randomBytes(300_000);
      const result = await storage.put(KEY, slowStream(data, 65_536), { digest: false });

      expect(result).toEqual({ key: KEY, size: data.length, sha256: null });
      expect(await readAll(await storage.get(KEY))).toEqual(data);
      expect(await made.leftovers()).toEqual([]);
    });

    it('stores an empty object', async () => {
      const result = await storage.put(KEY, Readable.from([]));
      expect(result).toEqual({ key: KEY, size: 0, sha256: sha256('') });
      expect(await readAll(await storage.get(KEY))).toEqual(Buffer.alloc(0));
      expect(await storage.stat(KEY)).toMatchObject({ key: KEY, size: 0 });
    });

    it('accepts exactly maxBytes', async () => {
      const data = randomBytes(1000);
      const result = await storage.put(KEY, slowStream(data, 100), { maxBytes: 1000 });
      expect(result.size).toBe(1000);
    });

    it('aborts past maxBytes, leaving no object and nothing half-written', async () => {
      const data = randomBytes(10_000);
      const put = storage.put(KEY, slowStream(data, 1000), { maxBytes: 4500 });

      await expect(put).rejects.toBeInstanceOf(StorageTooLargeError);
      await expect(put).rejects.toMatchObject({ code: 'tooLarge', maxBytes: 4500 });
      expect(await storage.stat(KEY)).toBeNull();
      await expect(storage.get(KEY)).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await made.leftovers()).toEqual([]);
    });

    it('refuses a maxBytes that is not a byte count', async () => {
      const body = Readable.from([Buffer.from('x')]);
      await expect(storage.put(KEY, body, { maxBytes: -1 })).rejects.toBeInstanceOf(RangeError);
    });

    it('fails with the source error when the source fails midway, leaving nothing', async () => {
      const failure = new Error('client went away');
      const put = storage.put(KEY, failingStream(randomBytes(50_000), failure));

      await expect(put).rejects.toBe(failure);
      expect(await storage.stat(KEY)).toBeNull();
      expect(await made.leftovers()).toEqual([]);
    });

    it('keeps the previous object when a replacement fails', async () => {
      const original = randomBytes(2000);
      await storage.put(KEY, Readable.from([original]));

      await expect(
        storage.put(KEY, failingStream(randomBytes(500), new Error('boom'))),
      ).rejects.toThrow('boom');
      await expect(
        storage.put(KEY, slowStream(randomBytes(5000), 1000), { maxBytes: 3000 }),
      ).rejects.toBeInstanceOf(StorageTooLargeError);
      expect(await readAll(await storage.get(KEY))).toEqual(original);
    });

    it('replaces an object whole', async () => {
      await storage.put(KEY, Readable.from([randomBytes(5000)]));
      const replacement = randomBytes(1200);
      await storage.put(KEY, Readable.from([replacement]));
      expect(await readAll(await storage.get(KEY))).toEqual(replacement);
      expect(await storage.stat(KEY)).toMatchObject({ size: 1200 });
    });

    it('ends concurrent puts to one key with one complete object', async () => {
      const bodies = Array.from({ length: 6 }, (_, i) => randomBytes(100_000 + i * 7919));
      const results = await Promise.all(bodies.map((body) => storage.put(KEY, slowStream(body))));

      const stored = await readAll(await storage.get(KEY));
      const winner = results.find((result) => result.sha256 === sha256(stored));
      expect(winner).toBeDefined();
      expect(stored.length).toBe(winner?.size);
      expect(await made.leftovers()).toEqual([]);
    });

    it('throws StorageNotFoundError for a missing object or a directory', async () => {
      await expect(storage.get(KEY)).rejects.toBeInstanceOf(StorageNotFoundError);
      await storage.put(KEY, Readable.from([Buffer.from('x')]));
      await expect(storage.get('teams')).rejects.toBeInstanceOf(StorageNotFoundError);
      expect(await storage.stat('teams')).toBeNull();
      await expect(storage.get(`${KEY}/below-a-file`)).rejects.toBeInstanceOf(StorageNotFoundError);
      await expect(storage.get('never/stored', { start: 3 })).rejects.toBeInstanceOf(
        StorageNotFoundError,
      );
    });
  });

  describe('ranges', () => {
    const data = Buffer.from('0123456789');

    beforeEach(async () => {
      await storage.put(KEY, Readable.from([data]));
    });

    it.each([
      [{ start: 2, end: 5 }, '2345'],
      [{ start: 0, end: 0 }, '0'],
      [{ start: 7 }, '789'],
      [{ start: 8, end: 100 }, '89'],
      [{ start: 10 }, ''],
      [{ start: 25, end: 30 }, ''],
    ])('reads %o', async (range, expected) => {
      expect((await readAll(await storage.get(KEY, range))).toString()).toBe(expected);
    });

    it.each([{ start: -1 }, { start: 5, end: 4 }, { start: 1.5 }, { start: 0, end: NaN }])(
      'refuses %o',
      async (range) => {
        await expect(storage.get(KEY, range)).rejects.toBeInstanceOf(StorageRangeError);
      },
    );
  });

  describe('keys', () => {
    const bad = [
      '',
      '/teams/a',
      'teams//a',
      'teams/a/',
      'teams/../a',
      '..',
      'teams/./a',
      'teams\\a',
      'teams/a\0b',
      'C:/x',
      '.tmp/x',
      'teams/.hidden',
      'x'.repeat(2000),
    ];

    it.each(bad)('refuses %j everywhere', async (key) => {
      const body = Readable.from([Buffer.from('x')]);
      await expect(storage.put(key, body)).rejects.toBeInstanceOf(StorageInvalidKeyError);
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageInvalidKeyError);
      await expect(storage.stat(key)).rejects.toBeInstanceOf(StorageInvalidKeyError);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(StorageInvalidKeyError);
      await expect(storage.signedUrl(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(
        StorageInvalidKeyError,
      );
    });

    it.each(['a', 'teams/a/files/b', 'logos/team.png', 'a b/ünï', "it's (1) & co+%"])(
      'accepts %j',
      async (key) => {
        await storage.put(key, Readable.from([Buffer.from('x')]));
        expect(await storage.stat(key)).toMatchObject({ key, size: 1 });
        expect((await readAll(await storage.get(key))).toString()).toBe('x');
      },
    );
  });

  describe('delete', () => {
    it('is idempotent', async () => {
      await storage.put(KEY, Readable.from([Buffer.from('bye')]));
      await storage.delete(KEY);
      expect(await storage.stat(KEY)).toBeNull();
      await expect(storage.delete(KEY)).resolves.toBeUndefined();
      await expect(storage.delete('never/stored')).resolves.toBeUndefined();
    });
  });

  describe('health', () => {
    it('passes on a usable store and leaves nothing behind', async () => {
      await expect(storage.health()).resolves.toBeUndefined();
      expect(await made.leftovers()).toEqual([]);
    });
  });

  describe('sweepTemp', () => {
    it('finds nothing to sweep after successful and failed puts', async () => {
      await storage.put(KEY, Readable.from([randomBytes(100)]));
      await expect(
        storage.put('other/key', failingStream(randomBytes(100), new Error('gone'))),
      ).rejects.toThrow('gone');
      expect(await storage.sweepTemp(0)).toBe(0);
      expect(await readAll(await storage.get(KEY))).toHaveLength(100);
    });
  });

  describe('list', () => {
    async function listed(prefix?: string) {
      const found = [];
      for await (const object of storage.list(prefix)) found.push(object);
      return found.sort((a, b) => (a.key < b.key ? -1 : 1));
    }

    it('names every object with its size and time, under a prefix or all', async () => {
      const before = Date.now() - 2000;
      const keys = [KEY, 'teams/b/x', 'teams/bb/y', 'other/z'];
      for (const [i, key] of keys.entries())
        await storage.put(key, Readable.from([randomBytes(i)]));
      // A failed put leaves nothing to list, and no temp file shows.
      await expect(
        storage.put('teams/b/failed', failingStream(randomBytes(100), new Error('gone'))),
      ).rejects.toThrow('gone');

      const all = await listed();
      expect(all.map((o) => o.key)).toEqual([...keys].sort());
      for (const object of all) {
        expect(object.size).toBe(keys.indexOf(object.key));
        expect(object.modifiedAt.getTime()).toBeGreaterThanOrEqual(before);
        expect(object.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 2000);
      }
      expect((await listed('teams/b/')).map((o) => o.key)).toEqual(['teams/b/x']);
      expect((await listed('teams/b')).map((o) => o.key)).toEqual(['teams/b/x', 'teams/bb/y']);
      expect(await listed('nothing/here/')).toEqual([]);
      await storage.delete('other/z');
      expect((await listed()).map((o) => o.key)).not.toContain('other/z');
    });
  });

  describe('signedUrl', () => {
    it('refuses a non-positive lifetime', async () => {
      for (const expiresInSeconds of [0, -5, NaN]) {
        await expect(storage.signedUrl(KEY, { expiresInSeconds })).rejects.toBeInstanceOf(
          RangeError,
        );
      }
    });
  });
});
