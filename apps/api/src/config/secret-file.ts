import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  linkSync,
  renameSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { ConfigError } from './env.js';

export interface SecretFileKind<T> {
  /** A new value, as written to the file. */
  make(): string;
  /** The value the file's text holds; null when the text is damaged or too short. */
  read(text: string): T | null;
  /** What the file must hold, for the start-up error: "a 32-byte key…". */
  holds: string;
  /** What the operator can do when it is damaged: restore it, set the variable… */
  remedy: string;
}

/**
 * The value kept in `file` (DATA_DIR/.secret, DATA_DIR/.storage-key), made on the first start.
 *
 * A new value is written whole to a file of its own (mode 0600, flushed to disk), then linked into
 * place: the name never shows a half-written value, and a link never replaces a file. Of several
 * processes starting on a fresh DATA_DIR, the first link wins and the others read the winner's
 * value, so all of them keep the same one. A file that is there but damaged, short or unreadable
 * is never replaced (the sessions, links or encrypted files made with it would be lost without a
 * word): it stops the start with a ConfigError naming the file and what to do.
 */
export function ensureSecretFile<T>(file: string, kind: SecretFileKind<T>): T {
  // A few turns at most: a winner's file read back, or one deleted under us between two steps.
  for (let turn = 0; turn < 5; turn++) {
    const text = readIfThere(file, kind);
    if (text !== null) return readOrRefuse(file, text, kind);
    mkdirSync(path.dirname(file), { recursive: true });
    const value = kind.make();
    const made = kind.read(value);
    if (made === null) throw new Error(`${file}: a new value does not read back`);
    if (place(file, value)) return made;
  }
  throw new ConfigError(
    `Invalid configuration:\n  ${file}: could not be made or read (it keeps disappearing); check DATA_DIR`,
  );
}

/** Writes `value` at `file` unless a file is there already; false when one was. */
function place(file: string, value: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, value);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    try {
      linkSync(temp, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') return false;
      // A file system without hard links: an exclusive copy, which still never replaces a file.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
      try {
        copyFileSync(temp, file, constants.COPYFILE_EXCL);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw copyError;
      }
    }
    syncFolder(path.dirname(file));
    return true;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Copies a secret file to `to` (a backup's copy, or a restore putting the snapshot's key back),
 * replacing what is there: written whole to a file of its own (mode 0600, flushed), then renamed
 * into place, so `to` holds the old value or the new one, never half of it, and only its owner
 * can read it.
 */
export function copySecretFile(from: string, to: string): void {
  const value = readFileSync(from);
  const temp = `${to}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, value);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, to);
  } finally {
    rmSync(temp, { force: true });
  }
  syncFolder(path.dirname(to));
}

function readIfThere<T>(file: string, kind: SecretFileKind<T>): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw refusal(file, `cannot be read (${code ?? String(error)})`, kind);
  }
}

function readOrRefuse<T>(file: string, text: string, kind: SecretFileKind<T>): T {
  const value = kind.read(text);
  if (value !== null) return value;
  const problem = text.trim() === '' ? 'is empty' : 'is damaged or too short';
  throw refusal(file, problem, kind);
}

function refusal<T>(file: string, problem: string, kind: SecretFileKind<T>): ConfigError {
  return new ConfigError(
    `Invalid configuration:\n  ${file}: ${problem}; it must hold ${kind.holds}. It was left as it is. ${kind.remedy}`,
  );
}

/** So the new name survives a power cut too (best effort: not every platform syncs folders). */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // the file itself is on disk; only its name may need the folder's next flush
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
