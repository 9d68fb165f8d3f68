import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { Base } from './env.js';
import { ensureSecretFile } from './secret-file.js';

/** The secret that signs tokens and links, and the keys of the premium plan's encrypted files. */
export const secretsEnv = z.object({
  APP_SECRET: z.string().min(32).optional(),
  STORAGE_ENCRYPTION_KEY: z
    .string()
    .refine((value) => decodeKey(value) !== null, {
      message: '32 bytes, written as 64 hexadecimal digits or in base64',
    })
    .optional(),
  STORAGE_ENCRYPTION_PREVIOUS_KEYS: z
    .string()
    .refine((value) => decodeKeyList(value) !== null, {
      message: 'keys of 32 bytes (64 hexadecimal digits or base64), separated by commas',
    })
    .optional(),
});

/**
 * Without APP_SECRET or STORAGE_ENCRYPTION_KEY (the embedded defaults), each is made once and
 * kept under DATA_DIR (ensureSecretFile), so sessions, links and encrypted files survive a
 * restart. Several API processes on their own folders, or storage that outlives this folder (S3),
 * need the variables instead.
 */
export function secretsConfig(e: z.output<typeof secretsEnv>, base: Pick<Base, 'dataDir'>) {
  const setKey =
    e.STORAGE_ENCRYPTION_KEY === undefined ? null : decodeKey(e.STORAGE_ENCRYPTION_KEY);
  return {
    secret: e.APP_SECRET ?? localSecret(base.dataDir),
    /** Encrypts the premium plan's stored files (32 bytes). */
    storageEncryptionKey: setKey ?? localStorageKey(base.dataDir),
    /** Keys objects encrypted before a rotation are read with; nothing is written with them. */
    storageEncryptionPreviousKeys: decodeKeyList(e.STORAGE_ENCRYPTION_PREVIOUS_KEYS ?? '') ?? [],
  };
}

/** DATA_DIR/.secret: at least 32 characters of text, as APP_SECRET. */
export function localSecret(dataDir: string): string {
  return ensureSecretFile(path.join(dataDir, '.secret'), {
    make: () => randomBytes(32).toString('base64url'),
    read: (text) => {
      const secret = text.trim();
      // Control characters (a file of zero bytes after a crash, a binary copy) are damage.
      return secret.length >= 32 && !/\p{Cc}/u.test(secret) ? secret : null;
    },
    holds: 'the secret that signs sessions and links (at least 32 characters)',
    remedy:
      'Restore it from a backup, or set APP_SECRET. Deleting it makes a new secret at the next start, which ends every session and invalidates every link sent.',
  });
}

/** DATA_DIR/.storage-key: a 32-byte key, as STORAGE_ENCRYPTION_KEY. */
export function localStorageKey(dataDir: string): Buffer {
  return ensureSecretFile(path.join(dataDir, '.storage-key'), {
    make: () => randomBytes(32).toString('base64url'),
    read: decodeKey,
    holds:
      "the key the premium plan's files are encrypted with (32 bytes, as 64 hexadecimal digits or in base64)",
    remedy:
      'Restore it from a backup, or set STORAGE_ENCRYPTION_KEY to the key. Never delete it while encrypted files exist: they could not be read again.',
  });
}

/** A 32-byte key written as 64 hex digits or in base64 (standard or URL-safe); null otherwise. */
export function decodeKey(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** Keys separated by commas (blanks around them ignored, empty entries skipped); null if one is bad. */
function decodeKeyList(value: string): Buffer[] | null {
  const keys: Buffer[] = [];
  for (const part of value.split(',')) {
    if (part.trim() === '') continue;
    const key = decodeKey(part);
    if (!key) return null;
    keys.push(key);
  }
  return keys;
}
