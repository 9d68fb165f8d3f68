import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * At-rest encryption of stored objects (the premium plan's, spec §1). An encrypted object is a
 * 24-byte header — `RCE1`, 4 bytes naming the key, a random 16-byte IV — then the bytes under
 * AES-256-CTR. CTR keeps ranged reads (downloads resumed by the browser, previews) as cheap as on
 * plain objects: any byte can be deciphered from its position alone. What is encrypted is named
 * by its key (`….enc`, see `encryptedKey`), so a reader never has to open an object to know.
 */

const MAGIC = Buffer.from('RCE1', 'ascii');
const KEY_ID_BYTES = 4;
const IV_BYTES = 16;
const BLOCK = 16;
export const ENCRYPTION_HEADER_BYTES = MAGIC.length + KEY_ID_BYTES + IV_BYTES;
const SUFFIX = '.enc';

/** Storage keys of encrypted objects end with `.enc`. */
export function isEncryptedKey(key: string): boolean {
  return key.endsWith(SUFFIX);
}

/** The key an object gets when it is stored encrypted. */
export function encryptedKey(key: string): string {
  return isEncryptedKey(key) ? key : `${key}${SUFFIX}`;
}

/**
 * The key an encrypted object gets when it is written again with another key by one run of the
 * rewrite (`….k<key id>-<run id>.enc`): never its own name, which readers may be reading from while
 * the copy is made, nor another run's, which that run may have pointed a file at already.
 */
export function rotatedKey(key: string, keyId: string, runId: string): string {
  const base = (isEncryptedKey(key) ? key.slice(0, -SUFFIX.length) : key).replace(
    /\.k[0-9a-f]{8}(?:-[0-9a-f]{8})?$/,
    '',
  );
  return `${base}.k${keyId}-${runId}${SUFFIX}`;
}

export class EncryptionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionKeyError';
  }
}

/** The short public id of a key, written in the header of every object enciphered with it. */
function keyIdOf(key: Buffer): Buffer {
  return createHmac('sha256', key)
    .update('raccolta storage key id')
    .digest()
    .subarray(0, KEY_ID_BYTES);
}

/** What an object's header says: its IV, and which of the configured keys enciphered it. */
export interface EncryptionHeader {
  readonly iv: Buffer;
  /** The key id, in hex (8 digits). */
  readonly keyId: string;
}

/**
 * The key every object is written with (STORAGE_ENCRYPTION_KEY), and the keys objects written
 * before a rotation may still be enciphered with (STORAGE_ENCRYPTION_PREVIOUS_KEYS): each object's
 * header names its key by id, so a reader finds the right one.
 */
export class StorageCipher {
  readonly #key: Buffer;
  readonly keyId: Buffer;
  /** Every key objects may be read with, by hex id; the current one too. */
  readonly #keys = new Map<string, Buffer>();

  constructor(key: Buffer, previous: readonly Buffer[] = []) {
    for (const k of [key, ...previous]) {
      if (k.length !== 32) {
        throw new EncryptionKeyError('The storage encryption key must be 32 bytes');
      }
    }
    this.#key = Buffer.from(key);
    this.keyId = keyIdOf(key);
    this.#keys.set(this.keyId.toString('hex'), this.#key);
    for (const k of previous) {
      const id = keyIdOf(k).toString('hex');
      if (!this.#keys.has(id)) this.#keys.set(id, Buffer.from(k));
    }
  }

  /** Plain bytes in, the header and the ciphertext out, always under the current key. */
  encrypt(): Transform {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-ctr', this.#key, iv);
    const header = Buffer.concat([MAGIC, this.keyId, iv]);
    let started = false;
    return new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        if (!started) {
          started = true;
          this.push(header);
        }
        callback(null, cipher.update(chunk));
      },
      flush(callback: TransformCallback) {
        if (!started) this.push(header);
        const rest = cipher.final();
        callback(null, rest.length > 0 ? rest : undefined);
      },
    });
  }

  /** What an object's header says; refuses another format, or a key that is not configured. */
  readHeader(header: Buffer, objectKey: string): EncryptionHeader {
    if (
      header.length < ENCRYPTION_HEADER_BYTES ||
      !header.subarray(0, MAGIC.length).equals(MAGIC)
    ) {
      throw new EncryptionKeyError(`${objectKey} is not an encrypted object`);
    }
    const keyId = header.subarray(MAGIC.length, MAGIC.length + KEY_ID_BYTES).toString('hex');
    if (!this.#keys.has(keyId)) {
      throw new EncryptionKeyError(
        `${objectKey} was encrypted with another key (id ${keyId}) than STORAGE_ENCRYPTION_KEY (id ${this.keyId.toString('hex')}) or any of STORAGE_ENCRYPTION_PREVIOUS_KEYS`,
      );
    }
    return {
      iv: Buffer.from(header.subarray(MAGIC.length + KEY_ID_BYTES, ENCRYPTION_HEADER_BYTES)),
      keyId,
    };
  }

  /**
   * Ciphertext that starts at the 16-byte block holding plain byte `start` in, plain bytes from
   * `start` out. `cipherOffset(start)` says where in the object that ciphertext begins.
   */
  decrypt({ iv, keyId }: EncryptionHeader, start: number): Transform {
    const key = this.#keys.get(keyId);
    if (!key) throw new EncryptionKeyError(`No configured storage encryption key has id ${keyId}`);
    const decipher = createDecipheriv('aes-256-ctr', key, counterAt(iv, Math.floor(start / BLOCK)));
    let skip = start % BLOCK;
    return new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        let plain = decipher.update(chunk);
        if (skip > 0) {
          const dropped = Math.min(skip, plain.length);
          plain = plain.subarray(dropped);
          skip -= dropped;
        }
        callback(null, plain.length > 0 ? plain : undefined);
      },
      flush(callback: TransformCallback) {
        const rest = decipher.final();
        callback(null, rest.length > 0 ? rest : undefined);
      },
    });
  }
}

/** Where, in the stored object, the ciphertext for plain byte `start` begins (its block's start). */
export function cipherOffset(start: number): number {
  return ENCRYPTION_HEADER_BYTES + start - (start % BLOCK);
}

/** The CTR counter block for block `index`: the IV read as a 128-bit big-endian number, plus index. */
function counterAt(iv: Buffer, index: number): Buffer {
  const counter = Buffer.from(iv);
  let carry = BigInt(index);
  for (let i = IV_BYTES - 1; i >= 0 && carry > 0n; i -= 1) {
    const sum = BigInt(counter[i] ?? 0) + (carry & 0xffn);
    counter[i] = Number(sum & 0xffn);
    carry = (carry >> 8n) + (sum >> 8n);
  }
  return counter;
}
