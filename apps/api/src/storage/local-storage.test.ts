import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage, verifySignedToken, type LocalStorage } from './local-storage.js';
import {
  StorageInvalidKeyError,
  StorageNotFoundError,
  StorageRangeError,
  StorageTooLargeError,
} from './storage.js';
import { failingStream, makeTempDir, readAll, sha256, slowStream } from './testing/helpers.js';

const SECRET = 'test-secret-test-secret-test-secret';
const KEY = 'teams/0190a5a0-0000-7000-8000-000000000001/files/0190a5a0-0000-7000-8000-000000000002';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let storage: LocalStorage;
let now: Date;

beforeEach(async () => {
  temp = await makeTempDir();
  now = new Date('2030-01-01T00:00:00Z');
  storage = createLocalStorage({
    root: path.join(temp.dir, 'files'),
    signingSecret: SECRET,
    publicBaseUrl: 'https://raccolta.test/api/',
    clock: () => now,
  });
});

afterEach(async () => {
  await temp.cleanup();
});

async function tempFiles(): Promise<string[]> {
  const dir = path.join(storage.root, '.tmp');
  return existsSync(dir) ? readdir(dir) : [];
}

describe('put and get', () => {
  it('round-trips the bytes and reports size and sha256', async () => {
    const data = randomBytes(300_000);
    const result = await storage.put(KEY, slowStream(data, 65_536));

    expect(result).toEqual({ key: KEY, size: data.length, sha256: sha256(data) });
    expect(await readAll(await storage.get(KEY))).toEqual(data);
    expect(await storage.stat(KEY)).toEqual({ key: KEY, size: data.length });
    expect(await readFile(path.join(storage.root, ...KEY.split('/')))).toEqual(data);
    expect(await tempFiles()).toEqual([]);
  });

  it('stores an empty object', async () => {
    const result = await storage.put(KEY, Readable.from([]));
    expect(result).toEqual({ key: KEY, size: 0, sha256: sha256('') });
    expect(await readAll(await storage.get(KEY))).toEqual(Buffer.alloc(0));
  });

  it('accepts exactly maxBytes', async () => {
    const data = randomBytes(1000);
    const result = await storage.put(KEY, slowStream(data, 100), { maxBytes: 1000 });
    expect(result.size).toBe(1000);
  });

  it('aborts past maxBytes, leaving neither a final nor a temp file', async () => {
    const data = randomBytes(10_000);
    const put = storage.put(KEY, slowStream(data, 1000), { maxBytes: 4500 });

    await expect(put).rejects.toBeInstanceOf(StorageTooLargeError);
    await expect(put).rejects.toMatchObject({ code: 'tooLarge', maxBytes: 4500 });
    expect(await storage.stat(KEY)).toBeNull();
    expect(existsSync(path.join(storage.root, ...KEY.split('/')))).toBe(false);
    expect(await tempFiles()).toEqual([]);
  });

  it('leaves no file behind when the source fails midway', async () => {
    const failure = new Error('client went away');
    const put = storage.put(KEY, failingStream(randomBytes(50_000), failure));

    await expect(put).rejects.toBe(failure);
    expect(await storage.stat(KEY)).toBeNull();
    expect(await tempFiles()).toEqual([]);
  });

  it('keeps the previous object when a replacement fails', async () => {
    const original = randomBytes(2000);
    await storage.put(KEY, Readable.from([original]));

    await expect(
      storage.put(KEY, failingStream(randomBytes(500), new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(await readAll(await storage.get(KEY))).toEqual(original);
  });

  it('ends concurrent puts to one key with one complete object', async () => {
    const bodies = Array.from({ length: 6 }, (_, i) => randomBytes(100_000 + i * 7919));
    const results = await Promise.all(bodies.map((body) => storage.put(KEY, slowStream(body))));

    const stored = await readAll(await storage.get(KEY));
    const winner = results.find((result) => result.sha256 === sha256(stored));
    expect(winner).toBeDefined();
    expect(stored.length).toBe(winner?.size);
    expect(await tempFiles()).toEqual([]);
  });

  it('throws StorageNotFoundError for a missing object or a directory', async () => {
    await expect(storage.get(KEY)).rejects.toBeInstanceOf(StorageNotFoundError);
    await storage.put(KEY, Readable.from([Buffer.from('x')]));
    await expect(storage.get('teams')).rejects.toBeInstanceOf(StorageNotFoundError);
    expect(await storage.stat('teams')).toBeNull();
    await expect(storage.get(`${KEY}/below-a-file`)).rejects.toBeInstanceOf(StorageNotFoundError);
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

  it.each(['a', 'teams/a/files/b', 'logos/team.png', 'a b/ünï'])('accepts %j', async (key) => {
    await storage.put(key, Readable.from([Buffer.from('x')]));
    expect(await storage.stat(key)).toEqual({ key, size: 1 });
  });
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
  it('passes on a writable root and leaves no probe behind', async () => {
    await storage.health();
    expect(await tempFiles()).toEqual([]);
  });

  it('fails when the root cannot hold files', async () => {
    const notADir = path.join(temp.dir, 'plain-file');
    await writeFile(notADir, 'x');
    const broken = createLocalStorage({
      root: notADir,
      signingSecret: SECRET,
      publicBaseUrl: 'http://x',
    });
    await expect(broken.health()).rejects.toThrow();
  });
});

describe('sweepTemp', () => {
  it('removes only temp files older than the cutoff', async () => {
    const tempDir = path.join(storage.root, '.tmp');
    await mkdir(tempDir, { recursive: true });
    const stale = path.join(tempDir, 'stale.part');
    const fresh = path.join(tempDir, 'fresh.part');
    await writeFile(stale, 'x');
    await writeFile(fresh, 'x');
    const old = new Date(now.getTime() - 2 * 3600_000);
    await utimes(stale, old, old);
    await utimes(fresh, now, now);

    expect(await storage.sweepTemp(3600_000)).toBe(1);
    expect(await tempFiles()).toEqual(['fresh.part']);
  });

  it('copes with no temp directory', async () => {
    expect(await storage.sweepTemp(0)).toBe(0);
  });
});

describe('signedUrl', () => {
  it('points at the storage route with a token the secret verifies', async () => {
    const url = await storage.signedUrl(KEY, {
      expiresInSeconds: 300,
      fileName: 'Relazione è.pdf',
      contentType: 'application/pdf',
      disposition: 'inline',
    });
    const prefix = 'https://raccolta.test/api/storage/';
    expect(url.startsWith(prefix)).toBe(true);

    const token = url.slice(prefix.length);
    const nowSeconds = now.getTime() / 1000;
    expect(verifySignedToken(SECRET, token, nowSeconds)).toEqual({
      k: KEY,
      e: nowSeconds + 300,
      n: 'Relazione è.pdf',
      t: 'application/pdf',
      d: 'inline',
    });
    expect(verifySignedToken(SECRET, token, nowSeconds + 300)).toBeNull();
    expect(verifySignedToken('another-secret', token, nowSeconds)).toBeNull();
  });

  it('refuses a non-positive lifetime', async () => {
    await expect(storage.signedUrl(KEY, { expiresInSeconds: 0 })).rejects.toBeInstanceOf(
      RangeError,
    );
  });
});
