/**
 * The encryption layer beyond the storage contract (which storage-contract.test.ts runs on it
 * too): what lies on the disk or in the bucket, ranged reads at every kind of offset, the key
 * check, S3 links that go through the API, and plain keys left alone.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withEncryption } from './encrypting-storage.js';
import {
  ENCRYPTION_HEADER_BYTES,
  EncryptionKeyError,
  rotatedKey,
  StorageCipher,
} from './encryption.js';
import { readSignedToken } from './signed-token.js';
import type { Storage } from './storage.js';
import {
  localHarness,
  s3Harness,
  SIGNING_SECRET,
  TEST_ENCRYPTION_KEY,
  type DriverUnderTest,
} from './testing/drivers.js';
import { readAll, sha256 } from './testing/helpers.js';

const KEY = 'teams/t/collections/c/f/original.enc';
const links = {
  signingSecret: SIGNING_SECRET,
  publicBaseUrl: 'https://raccolta.test/api/',
  clock: () => new Date('2026-11-26T00:00:00Z'),
};

describe.each([localHarness(), s3Harness()])('encryption on the $name driver', (harness) => {
  let made: DriverUnderTest;
  let raw: Storage;
  let storage: Storage;

  beforeAll(() => harness.start());
  afterAll(() => harness.stop());
  beforeEach(async () => {
    made = await harness.make();
    raw = made.storage;
    storage = withEncryption(raw, new StorageCipher(TEST_ENCRYPTION_KEY), links);
  });
  afterEach(() => made.cleanup());

  it('never has the driver hash the ciphertext: the digest it answers is of the plain bytes', async () => {
    const asked: (boolean | undefined)[] = [];
    const watched = withEncryption(
      {
        ...raw,
        put: (key, body, opts) => {
          asked.push(opts?.digest);
          return raw.put(key, body, opts);
        },
      },
      new StorageCipher(TEST_ENCRYPTION_KEY),
      links,
    );
    const data = randomBytes(100_000);
    expect(await watched.put(KEY, Readable.from([data]))).toMatchObject({ sha256: sha256(data) });
    expect(await watched.put(KEY, Readable.from([data]), { digest: false })).toMatchObject({
      sha256: null,
    });
    expect(asked).toEqual([false, false]);
    expect(await readAll(await watched.get(KEY))).toEqual(data);
  });

  it('stores only ciphertext under the header, and reads back the plain bytes', async () => {
    // Repetitive text: any plain run of it in the stored object would show.
    const data = Buffer.from('Raccolta premium photo bytes. '.repeat(4000));
    const result = await storage.put(KEY, Readable.from([data]), { contentType: 'image/jpeg' });
    expect(result).toEqual({ key: KEY, size: data.length, sha256: sha256(data) });

    const stored = await readAll(await raw.get(KEY));
    expect(stored).toHaveLength(data.length + ENCRYPTION_HEADER_BYTES);
    expect(stored.subarray(0, 4).toString('ascii')).toBe('RCE1');
    expect(stored.includes(Buffer.from('premium photo'))).toBe(false);
    expect(await readAll(await storage.get(KEY))).toEqual(data);
    expect(await storage.stat(KEY)).toMatchObject({ size: data.length });

    // The same bytes twice are two different ciphertexts (a new IV per object).
    await storage.put(KEY, Readable.from([data]));
    expect((await readAll(await raw.get(KEY))).equals(stored)).toBe(false);
    expect(await readAll(await storage.get(KEY))).toEqual(data);
  });

  it('reads any range: inside a block, across blocks, at the ends, past the end', async () => {
    const data = randomBytes(70_000);
    await storage.put(KEY, Readable.from([data]));
    const ranges: [number, number | undefined][] = [
      [0, 0],
      [0, 15],
      [15, 16],
      [16, 31],
      [17, 17],
      [1, 65_537],
      [65_535, undefined],
      [69_999, 69_999],
      [69_990, 80_000],
      [70_000, undefined],
    ];
    for (let i = 0; i < 40; i += 1) {
      const start = Math.floor(Math.random() * data.length);
      ranges.push([start, start + Math.floor(Math.random() * 5000)]);
    }
    for (const [start, end] of ranges) {
      const got = await readAll(
        await storage.get(KEY, { start, ...(end !== undefined ? { end } : {}) }),
      );
      expect(
        got.equals(data.subarray(start, end === undefined ? undefined : end + 1)),
        `${start}-${end}`,
      ).toBe(true);
    }
  });

  it('refuses an object written with another key, and one that is not encrypted', async () => {
    const other = withEncryption(raw, new StorageCipher(Buffer.alloc(32, 1)), links);
    await other.put(KEY, Readable.from([Buffer.from('secret')]));
    await expect(storage.get(KEY)).rejects.toBeInstanceOf(EncryptionKeyError);
    await expect(storage.get(KEY, { start: 2 })).rejects.toThrow(
      /another key \(id [0-9a-f]{8}\) than STORAGE_ENCRYPTION_KEY .* STORAGE_ENCRYPTION_PREVIOUS_KEYS/,
    );

    await raw.put(KEY, Readable.from([Buffer.from('plain bytes under an encrypted name')]));
    await expect(storage.get(KEY)).rejects.toThrow(/not an encrypted object/);
  });

  it('after a rotation, reads what the previous keys wrote and writes with the new key only', async () => {
    const first = Buffer.alloc(32, 1);
    const second = Buffer.alloc(32, 2);
    const before = withEncryption(raw, new StorageCipher(first), links);
    const data = randomBytes(50_000);
    await before.put(KEY, Readable.from([data]));
    const earlierHeader = (await readAll(await raw.get(KEY))).subarray(0, ENCRYPTION_HEADER_BYTES);

    // Rotated twice: the current key, and both earlier ones listed as previous keys.
    const rotated = withEncryption(
      raw,
      new StorageCipher(TEST_ENCRYPTION_KEY, [second, first]),
      links,
    );
    expect(await readAll(await rotated.get(KEY))).toEqual(data);
    expect(await readAll(await rotated.get(KEY, { start: 17, end: 40_000 }))).toEqual(
      data.subarray(17, 40_001),
    );

    const NEW = 'teams/t/collections/c/g/original.enc';
    await rotated.put(NEW, Readable.from([data]));
    const written = await readAll(await raw.get(NEW));
    // Another key id in the header than the earlier object's: the current key wrote it.
    expect(written.subarray(4, 8).equals(earlierHeader.subarray(4, 8))).toBe(false);
    // Readable with the current key alone; the earlier object is not.
    expect(await readAll(await storage.get(NEW))).toEqual(data);
    await expect(storage.get(KEY)).rejects.toBeInstanceOf(EncryptionKeyError);
  });

  it('leaves objects under other keys as they are', async () => {
    const data = Buffer.from('a thumbnail of a free team');
    await storage.put('teams/t/collections/c/f/thumbnail.webp', Readable.from([data]));
    expect(await readAll(await raw.get('teams/t/collections/c/f/thumbnail.webp'))).toEqual(data);
  });

  it(`links an encrypted object through the API's storage route`, async () => {
    await storage.put(KEY, Readable.from([Buffer.from('x')]));
    const url = new URL(
      await storage.signedUrl(KEY, { expiresInSeconds: 60, fileName: 'photo.jpg' }),
    );
    expect(`${url.origin}${url.pathname}`).toMatch(/^https:\/\/raccolta\.test\/api\/storage\//);
    const token = url.pathname.split('/').pop() ?? '';
    expect(readSignedToken(SIGNING_SECRET, token)).toMatchObject({ k: KEY, n: 'photo.jpg' });
    if (harness.name === 's3') {
      // A plain object keeps its presigned link straight to the bucket.
      await storage.put('plain/object', Readable.from([Buffer.from('y')]));
      const plain = await storage.signedUrl('plain/object', { expiresInSeconds: 60 });
      expect(plain).not.toContain('raccolta.test');
    }
  });
});

describe('StorageCipher', () => {
  it('takes only 32-byte keys, the current one and the previous ones', () => {
    expect(() => new StorageCipher(Buffer.alloc(16))).toThrow(EncryptionKeyError);
    expect(() => new StorageCipher(TEST_ENCRYPTION_KEY, [Buffer.alloc(31)])).toThrow(
      EncryptionKeyError,
    );
  });

  it('names each key by its own id and writes with the current one', () => {
    const previous = Buffer.alloc(32, 9);
    const cipher = new StorageCipher(TEST_ENCRYPTION_KEY, [previous, TEST_ENCRYPTION_KEY]);
    expect(cipher.keyId.equals(new StorageCipher(TEST_ENCRYPTION_KEY).keyId)).toBe(true);
    expect(cipher.keyId.equals(new StorageCipher(previous).keyId)).toBe(false);
    const header = (id: Buffer) => Buffer.concat([Buffer.from('RCE1'), id, Buffer.alloc(16, 5)]);
    expect(cipher.readHeader(header(new StorageCipher(previous).keyId), 'k').keyId).toBe(
      new StorageCipher(previous).keyId.toString('hex'),
    );
    expect(() => cipher.readHeader(Buffer.from('RCE1'), 'k')).toThrow(/not an encrypted object/);
    expect(() =>
      cipher.readHeader(header(new StorageCipher(Buffer.alloc(32, 8)).keyId), 'k'),
    ).toThrow(/another key/);
  });

  it('deciphers from any block, the counter carrying across bytes', async () => {
    const cipher = new StorageCipher(TEST_ENCRYPTION_KEY);
    const data = randomBytes(4096);
    // IVs whose low bytes are all 0xff: counting blocks from there carries into higher bytes.
    for (const iv of [
      Buffer.concat([Buffer.alloc(8, 7), Buffer.alloc(8, 0xff)]),
      Buffer.concat([Buffer.alloc(14, 3), Buffer.from([0xff, 0xf0])]),
      Buffer.alloc(16, 0xff),
    ]) {
      const reference = createCipheriv('aes-256-ctr', TEST_ENCRYPTION_KEY, iv);
      const encrypted = Buffer.concat([reference.update(data), reference.final()]);
      for (const start of [0, 1, 16, 33, 4000, 4095]) {
        const body = encrypted.subarray(start - (start % 16));
        const header = { iv, keyId: cipher.keyId.toString('hex') };
        const plain = await readAll(Readable.from([body]).pipe(cipher.decrypt(header, start)));
        expect(plain.equals(data.subarray(start)), `iv ${iv.toString('hex')} at ${start}`).toBe(
          true,
        );
      }
    }
  });
});

describe('rotatedKey', () => {
  it('names a rewritten object after the key and the run that write it, never as it was named', () => {
    const folder = 'teams/t/collections/c/f';
    expect(rotatedKey(`${folder}/original.enc`, '0a1b2c3d', '99887766')).toBe(
      `${folder}/original.k0a1b2c3d-99887766.enc`,
    );
    // Rotated again: the earlier key's and run's mark is replaced, not stacked.
    expect(rotatedKey(`${folder}/original.k0a1b2c3d-99887766.enc`, 'ffee0011', '12345678')).toBe(
      `${folder}/original.kffee0011-12345678.enc`,
    );
    // As the first version of the rewrite named them, without a run.
    expect(rotatedKey(`${folder}/original.k0a1b2c3d.enc`, 'ffee0011', '12345678')).toBe(
      `${folder}/original.kffee0011-12345678.enc`,
    );
    expect(rotatedKey(`${folder}/thumbnail.webp.enc`, '0a1b2c3d', '99887766')).toBe(
      `${folder}/thumbnail.webp.k0a1b2c3d-99887766.enc`,
    );
    // Two runs with the same key never share a name.
    expect(rotatedKey(`${folder}/original.enc`, '0a1b2c3d', '00000001')).not.toBe(
      rotatedKey(`${folder}/original.enc`, '0a1b2c3d', '00000002'),
    );
  });
});
