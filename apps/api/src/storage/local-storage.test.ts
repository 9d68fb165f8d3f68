/**
 * The local driver's own ground: files, temp files and signed tokens. The contract it shares
 * with the S3 driver is in storage-contract.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStorage, verifySignedToken, type LocalStorage } from './local-storage.js';
import { StorageTooLargeError } from './storage.js';
import { localTempFiles, SIGNING_SECRET } from './testing/drivers.js';
import { failingStream, makeTempDir, readAll, slowStream } from './testing/helpers.js';

const KEY = 'teams/0190a5a0-0000-7000-8000-000000000001/files/0190a5a0-0000-7000-8000-000000000002';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let storage: LocalStorage;
let now: Date;

beforeEach(async () => {
  temp = await makeTempDir();
  now = new Date('2030-01-01T00:00:00Z');
  storage = createLocalStorage({
    root: path.join(temp.dir, 'files'),
    signingSecret: SIGNING_SECRET,
    publicBaseUrl: 'https://raccolta.test/api/',
    clock: () => now,
  });
});

afterEach(async () => {
  await temp.cleanup();
});

function filePath(key: string): string {
  return path.join(storage.root, ...key.split('/'));
}

describe('files on disk', () => {
  it('keeps an object as a plain file at its key', async () => {
    const data = randomBytes(300_000);
    await storage.put(KEY, slowStream(data, 65_536));

    expect(await readFile(filePath(KEY))).toEqual(data);
    expect(await storage.stat(KEY)).toEqual({ key: KEY, size: data.length });
    expect(await localTempFiles(storage)).toEqual([]);
  });

  it('leaves neither a final nor a temp file past maxBytes', async () => {
    const put = storage.put(KEY, slowStream(randomBytes(10_000), 1000), { maxBytes: 4500 });

    await expect(put).rejects.toBeInstanceOf(StorageTooLargeError);
    expect(existsSync(filePath(KEY))).toBe(false);
    expect(await localTempFiles(storage)).toEqual([]);
  });

  it('leaves no temp file when the source fails midway', async () => {
    const put = storage.put(KEY, failingStream(randomBytes(50_000), new Error('gone')));

    await expect(put).rejects.toThrow('gone');
    expect(existsSync(filePath(KEY))).toBe(false);
    expect(await localTempFiles(storage)).toEqual([]);
  });

  it('keeps reading the file it opened when the key is replaced meanwhile', async () => {
    const original = randomBytes(200_000);
    await storage.put(KEY, Readable.from([original]));
    const reading = await storage.get(KEY);
    await storage.put(KEY, Readable.from([randomBytes(1000)]));
    expect(await readAll(reading)).toEqual(original);
  });
});

describe('adoptFile', () => {
  const source = (name: string) => path.join(temp.dir, name);

  it('makes a file an object without copying it, creating the folders of its key', async () => {
    const data = randomBytes(70_000);
    await writeFile(source('upload'), data);
    expect(await storage.adoptFile(KEY, source('upload'))).toBe(data.length);
    expect(await readAll(await storage.get(KEY))).toEqual(data);
    // The same file under two names: no byte was copied.
    const [object, original] = await Promise.all([
      stat(path.join(temp.dir, 'files', ...KEY.split('/'))),
      stat(source('upload')),
    ]);
    expect(object.ino).toBe(original.ino);
    expect(object.nlink).toBe(2);
  });

  it('does nothing when adopting the same file again (a retried commit)', async () => {
    await writeFile(source('upload'), 'first');
    await storage.adoptFile(KEY, source('upload'));
    expect(await storage.adoptFile(KEY, source('upload'))).toBe(5);
    expect((await readAll(await storage.get(KEY))).toString()).toBe('first');
  });

  it('replaces whatever else the key held', async () => {
    await storage.put(KEY, Readable.from([Buffer.from('older object')]));
    await writeFile(source('upload'), 'newer');
    expect(await storage.adoptFile(KEY, source('upload'))).toBe(5);
    expect((await readAll(await storage.get(KEY))).toString()).toBe('newer');
  });

  it('fails, creating no object, when the file is missing', async () => {
    await expect(storage.adoptFile(KEY, source('missing'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await storage.stat(KEY)).toBeNull();
  });
});

describe('health', () => {
  it('leaves no probe behind', async () => {
    await storage.health();
    expect(await localTempFiles(storage)).toEqual([]);
  });

  it('fails when the root cannot hold files', async () => {
    const notADir = path.join(temp.dir, 'plain-file');
    await writeFile(notADir, 'x');
    const broken = createLocalStorage({
      root: notADir,
      signingSecret: SIGNING_SECRET,
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
    expect(await localTempFiles(storage)).toEqual(['fresh.part']);
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
    expect(verifySignedToken(SIGNING_SECRET, token, nowSeconds)).toEqual({
      k: KEY,
      e: nowSeconds + 300,
      n: 'Relazione è.pdf',
      t: 'application/pdf',
      d: 'inline',
    });
    expect(verifySignedToken(SIGNING_SECRET, token, nowSeconds + 300)).toBeNull();
    expect(verifySignedToken('another-secret', token, nowSeconds)).toBeNull();
  });
});
