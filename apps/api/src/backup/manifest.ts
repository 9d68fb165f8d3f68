import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertValidKey } from '../storage/storage.js';

/** One stored object the snapshot's database refers to. */
export interface ManifestObject {
  key: string;
  size: number;
  /** SHA-256 of the bytes as stored (ciphertext for an encrypted `.enc` object). */
  sha256: string | null;
  /** Modification time of the stored file (local disk): an unchanged object is not read again. */
  mtimeMs?: number;
  /** What refers to it: a file's original or rendition, or a prepared archive's part. */
  role: 'original' | 'thumbnail' | 'preview' | 'archive';
}

export interface Manifest {
  format: 1;
  createdAt: string;
  database: { kind: 'sqlite' | 'postgres'; file: string };
  storage: { kind: 'local' | 's3'; bytesCopied: boolean };
  /** Secret files of the embedded defaults copied beside the database (DATA_DIR/.secret…). */
  secrets: string[];
  objects: ManifestObject[];
}

export const SNAPSHOTS_DIR = 'snapshots';
export const OBJECTS_DIR = 'objects';
export const LATEST_FILE = 'LATEST';
export const MANIFEST_FILE = 'manifest.json';
/** The files of the embedded defaults that hold keys: without them a restore cannot read. */
export const SECRET_FILES = ['.secret', '.storage-key'] as const;

export class BackupError extends Error {}

/** Where an object's copy lives in a backup folder; keys never escape it (assertValidKey). */
export function objectPath(backupDir: string, key: string): string {
  assertValidKey(key);
  return path.join(backupDir, OBJECTS_DIR, ...key.split('/'));
}

export async function readManifest(snapshotDir: string): Promise<Manifest> {
  const text = await readFile(path.join(snapshotDir, MANIFEST_FILE), 'utf8');
  const manifest = JSON.parse(text) as { format?: unknown };
  if (manifest.format !== 1) throw new BackupError(`Unknown backup format in ${snapshotDir}`);
  return manifest as Manifest;
}

/** The snapshot a restore takes by default: the one LATEST names. */
export async function latestSnapshot(backupDir: string): Promise<string | null> {
  try {
    return (await readFile(path.join(backupDir, LATEST_FILE), 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

/** Writes a file through a temporary name, so a crash never leaves half of it under its name. */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const temp = `${file}.part`;
  await writeFile(temp, data, { mode: 0o600 });
  await rename(temp, file);
}

/**
 * Copies `from` to `to` through a temporary name, hashing the bytes on the way; answers their
 * SHA-256 and size. A copy, not a hard link: a disk fault in the original must not reach it.
 */
export async function copyHashing(
  from: string,
  to: string,
): Promise<{ sha256: string; size: number }> {
  await mkdir(path.dirname(to), { recursive: true });
  const temp = `${to}.part`;
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      createReadStream(from, { highWaterMark: 1024 * 1024 }),
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(temp, { mode: 0o600 }),
    );
    await rename(temp, to);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * A PostgreSQL URL for pg_dump and pg_restore's command line without its password, which goes in
 * PGPASSWORD instead: a command line is readable by every user of the machine (`ps`), a process's
 * environment only by its owner.
 */
export function toolConnection(databaseUrl: string): { url: string; env: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    return { url: databaseUrl, env: {} };
  }
  const env: Record<string, string> = {};
  const inQuery = parsed.searchParams.get('password');
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  else if (inQuery !== null) env.PGPASSWORD = inQuery;
  parsed.password = '';
  parsed.searchParams.delete('password');
  return { url: parsed.toString(), env };
}

/** Runs a program (pg_dump, pg_restore) to its end; refuses with its error output. */
export function run(
  program: string,
  args: string[],
  what: string,
  env: Record<string, string> = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const child = spawn(program, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${what}: ${program} was not found. Install PostgreSQL's client programs (the version of the server or newer), or name them with PG_DUMP_PATH and PG_RESTORE_PATH.`
            : `${what}: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${what}: ${program} exited with ${code}\n${stderr.trim()}`)),
    );
  });
}
