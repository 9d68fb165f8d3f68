import { copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import { copySecretFile } from '../config/secret-file.js';
import { createDb } from '../db/create-db.js';
import type { Storage } from '../storage/storage.js';
import { databaseFileName, eachLimited, exists } from './backup.js';
import {
  BackupError,
  copyHashing,
  latestSnapshot,
  objectPath,
  readManifest,
  run,
  toolConnection,
  SNAPSHOTS_DIR,
} from './manifest.js';

export interface RestoreReport {
  snapshot: string;
  objects: number;
  /** In the manifest but not in the backup folder (local) or the bucket (S3). */
  missing: string[];
  /** Copies whose bytes differ from the SHA-256 the manifest recorded (local disk). */
  damaged: string[];
  secrets: string[];
}

export interface RestoreDeps {
  config: Pick<Config, 'database' | 'storage' | 'dataDir' | 'backup'>;
  /** Only asked on S3: whether each object the manifest names is in the bucket. */
  storage: Pick<Storage, 'stat'>;
}

/**
 * Brings a backup back into an empty instance: the database (copied for SQLite, pg_restore for
 * PostgreSQL), on local disk every object of the manifest (checked against its SHA-256 on the
 * way), the embedded defaults' key files. Refuses a target that holds a database or objects.
 * On S3 the bytes stayed in the bucket (its versioning or replication): each object of the
 * manifest is looked for there, and the missing ones are named.
 */
export async function restore(
  deps: RestoreDeps,
  backupDir: string,
  snapshotName?: string,
): Promise<RestoreReport> {
  const snapshot = snapshotName ?? (await latestSnapshot(backupDir));
  if (!snapshot) throw new BackupError(`${backupDir} holds no backup (no LATEST file).`);
  const snapshotDir = path.join(backupDir, SNAPSHOTS_DIR, snapshot);
  const manifest = await readManifest(snapshotDir).catch((error: unknown) => {
    throw new BackupError(`${snapshotDir} is not a complete backup: ${(error as Error).message}`);
  });
  const { config } = deps;
  if (manifest.database.kind !== config.database.kind)
    throw new BackupError(
      `The backup holds a ${manifest.database.kind} database; this instance is configured for ${config.database.kind} (DATABASE_URL).`,
    );
  if (manifest.storage.kind !== config.storage.kind)
    throw new BackupError(
      `The backup was taken with STORAGE=${manifest.storage.kind}; this instance has STORAGE=${config.storage.kind}.`,
    );
  await refuseNonEmpty(config);

  const databaseFile = path.join(snapshotDir, databaseFileName(manifest.database.kind));
  if (config.database.kind === 'sqlite') {
    await mkdir(path.dirname(config.database.file), { recursive: true });
    await copyFile(databaseFile, config.database.file);
  } else {
    const connection = toolConnection(config.database.url);
    await run(
      config.backup.pgRestorePath,
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        `--dbname=${connection.url}`,
        databaseFile,
      ],
      'Restoring the database',
      connection.env,
    );
  }

  const report: RestoreReport = {
    snapshot,
    objects: manifest.objects.length,
    missing: [],
    damaged: [],
    secrets: [],
  };
  const storageConfig = config.storage;
  if (storageConfig.kind === 'local') {
    await eachLimited(manifest.objects, 2, async (object) => {
      const from = objectPath(backupDir, object.key);
      const to = path.join(storageConfig.root, ...object.key.split('/'));
      try {
        const copied = await copyHashing(from, to);
        if (object.sha256 && copied.sha256 !== object.sha256) report.damaged.push(object.key);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') report.missing.push(object.key);
        else throw error;
      }
    });
  } else {
    await eachLimited(manifest.objects, 16, async (object) => {
      const info = await deps.storage.stat(object.key);
      if (!info || info.size !== object.size) report.missing.push(object.key);
    });
  }

  await mkdir(config.dataDir, { recursive: true });
  for (const name of manifest.secrets) {
    copySecretFile(path.join(snapshotDir, name), path.join(config.dataDir, name));
    report.secrets.push(name);
  }
  report.missing.sort();
  report.damaged.sort();
  return report;
}

/** A restore goes into an empty database and an empty store, never over an instance. */
async function refuseNonEmpty(config: RestoreDeps['config']): Promise<void> {
  if (config.database.kind === 'sqlite') {
    if (await exists(config.database.file))
      throw new BackupError(
        `${config.database.file} exists: restore into an empty DATA_DIR (or a DATABASE_URL naming a new file). Nothing was changed.`,
      );
  } else {
    const db = createDb(config.database) as unknown as Kysely<unknown>;
    try {
      const tables = await sql<{
        n: number;
      }>`select count(*)::int as n from information_schema.tables where table_schema = 'public'`.execute(
        db,
      );
      if ((tables.rows[0]?.n ?? 0) > 0)
        throw new BackupError(
          'The database DATABASE_URL names has tables: restore into an empty database (createdb a new one). Nothing was changed.',
        );
    } finally {
      await db.destroy();
    }
  }
  if (config.storage.kind === 'local' && (await holdsFiles(config.storage.root)))
    throw new BackupError(
      `${config.storage.root} holds files: restore into an empty DATA_DIR. Nothing was changed.`,
    );
}

/** Whether a folder holds any file, at any depth. */
async function holdsFiles(dir: string): Promise<boolean> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.isFile()) return true;
    if (entry.isDirectory() && (await holdsFiles(path.join(dir, entry.name)))) return true;
  }
  return false;
}
