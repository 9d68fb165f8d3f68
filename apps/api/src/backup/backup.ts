import { existsSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import { copySecretFile } from '../config/secret-file.js';
import { createDb, type Db } from '../db/create-db.js';
import type { Database } from '../db/database.js';
import { isEncryptedKey } from '../storage/encryption.js';
import type { Storage } from '../storage/storage.js';
import {
  copyHashing,
  LATEST_FILE,
  latestSnapshot,
  MANIFEST_FILE,
  objectPath,
  readManifest,
  run,
  toolConnection,
  SECRET_FILES,
  SNAPSHOTS_DIR,
  writeFileAtomic,
  type Manifest,
  type ManifestObject,
} from './manifest.js';

export interface BackupDeps {
  config: Pick<Config, 'database' | 'storage' | 'dataDir' | 'backup'>;
  db: Db;
  storage: Storage;
}

export interface BackupReport {
  dir: string;
  snapshot: string;
  database: { kind: 'sqlite' | 'postgres'; bytes: number };
  storage: 'local' | 's3';
  objects: number;
  /** Objects copied this time (local disk); the others were in the backup already. */
  copied: number;
  copiedBytes: number;
  /** Referred to by the database but absent from the store. */
  missing: string[];
  /** Originals whose stored bytes no longer match the SHA-256 the database recorded. */
  damaged: string[];
  secrets: string[];
}

/** A reference to a stored object, as the snapshot's database holds it. */
interface Reference {
  key: string;
  role: ManifestObject['role'];
  /** Recorded SHA-256 and size of a plain original. */
  sha256: string | null;
  size: number | null;
}

/**
 * Writes a consistent backup of a running instance into `backupDir`: a snapshot of the database
 * (SQLite's VACUUM INTO, or pg_dump's custom format on an exported snapshot), the list of every
 * stored object that snapshot refers to, with its size and SHA-256, and on local disk a copy of
 * each object not already in `backupDir` (incremental). Objects are read after the database was
 * taken: an object is stored before the row that names it commits, and a deleted file's object
 * is kept for a while after (its links stay valid), so whatever the snapshot names is there.
 */
export async function backup(
  deps: BackupDeps,
  backupDir: string,
  now = new Date(),
): Promise<BackupReport> {
  const snapshot = now.toISOString().replace(/[:.]/g, '-');
  const snapshotDir = path.join(backupDir, SNAPSHOTS_DIR, snapshot);
  await mkdir(snapshotDir, { recursive: true, mode: 0o700 });

  const { database, references } = await snapshotDatabase(deps, snapshotDir);

  const previousName = await latestSnapshot(backupDir);
  const previous = new Map<string, ManifestObject>();
  if (previousName) {
    const manifest = await readManifest(path.join(backupDir, SNAPSHOTS_DIR, previousName)).catch(
      () => null,
    );
    for (const object of manifest?.objects ?? []) previous.set(object.key, object);
  }

  const report: BackupReport = {
    dir: backupDir,
    snapshot,
    database,
    storage: deps.config.storage.kind,
    objects: 0,
    copied: 0,
    copiedBytes: 0,
    missing: [],
    damaged: [],
    secrets: [],
  };
  const objects: ManifestObject[] = [];
  const storageConfig = deps.config.storage;
  await eachLimited(references, storageConfig.kind === 'local' ? 2 : 16, async (ref) => {
    const object =
      storageConfig.kind === 'local'
        ? await backUpLocal(storageConfig.root, backupDir, ref, previous.get(ref.key), report)
        : await recordRemote(deps.storage, ref);
    if (!object) {
      report.missing.push(ref.key);
      return;
    }
    if (
      ref.role === 'original' &&
      ref.sha256 &&
      object.sha256 &&
      !isEncryptedKey(ref.key) &&
      object.sha256 !== ref.sha256
    )
      report.damaged.push(ref.key);
    objects.push(object);
  });
  objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  report.objects = objects.length;

  // The keys the embedded defaults keep in DATA_DIR: a restore without them could not read the
  // premium teams' files nor honour the sessions and links handed out.
  for (const name of SECRET_FILES) {
    const from = path.join(deps.config.dataDir, name);
    if (!(await exists(from))) continue;
    copySecretFile(from, path.join(snapshotDir, name));
    report.secrets.push(name);
  }

  const manifest: Manifest = {
    format: 1,
    createdAt: now.toISOString(),
    database: { kind: database.kind, file: databaseFileName(database.kind) },
    storage: { kind: storageConfig.kind, bytesCopied: storageConfig.kind === 'local' },
    secrets: report.secrets,
    objects,
  };
  await writeFileAtomic(path.join(snapshotDir, MANIFEST_FILE), JSON.stringify(manifest));
  // Last: a snapshot becomes the one a restore takes only once it is whole.
  await writeFileAtomic(path.join(backupDir, LATEST_FILE), `${snapshot}\n`);
  return report;
}

export function databaseFileName(kind: 'sqlite' | 'postgres'): string {
  return kind === 'sqlite' ? 'database.sqlite' : 'database.pgdump';
}

async function snapshotDatabase(
  deps: BackupDeps,
  snapshotDir: string,
): Promise<{ database: BackupReport['database']; references: Reference[] }> {
  const { config, db } = deps;
  const file = path.join(snapshotDir, databaseFileName(config.database.kind));
  if (config.database.kind === 'sqlite') {
    // A transactionally consistent copy while others write (WAL readers are not blocked).
    await sql`vacuum into ${file}`.execute(db);
    const copy = createDb({ kind: 'sqlite', file });
    try {
      const references = await referencesIn(copy);
      return { database: { kind: 'sqlite', bytes: (await stat(file)).size }, references };
    } finally {
      await copy.destroy();
    }
  }
  const connection = toolConnection(config.database.url);
  const pgDump = config.backup.pgDumpPath;
  // pg_dump reads the snapshot this transaction exported; the references are read in it too,
  // so the dump and the list of objects are of the same moment.
  const references = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const exported = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
      const id = exported.rows[0]?.id ?? '';
      const [refs] = await Promise.all([
        referencesIn(trx),
        run(
          pgDump,
          ['--format=custom', `--snapshot=${id}`, '--no-owner', `--file=${file}`, connection.url],
          'Backing up the database',
          connection.env,
        ),
      ]);
      return refs;
    });
  return { database: { kind: 'postgres', bytes: (await stat(file)).size }, references };
}

async function referencesIn(db: Kysely<Database>): Promise<Reference[]> {
  const references: Reference[] = [];
  const files = await db
    .selectFrom('files')
    .select(['storage_key', 'thumbnail_key', 'preview_key', 'sha256', 'size'])
    .execute();
  // Files in the trash keep their objects until purged: a restored trash must find them.
  const trashed = await db.selectFrom('trash').select('data').where('kind', '=', 'file').execute();
  for (const row of trashed) files.push(JSON.parse(row.data) as (typeof files)[number]);
  for (const file of files) {
    references.push({
      key: file.storage_key,
      role: 'original',
      sha256: file.sha256,
      size: file.size,
    });
    if (file.thumbnail_key)
      references.push({ key: file.thumbnail_key, role: 'thumbnail', sha256: null, size: null });
    if (file.preview_key)
      references.push({ key: file.preview_key, role: 'preview', sha256: null, size: null });
  }
  const parts = await db
    .selectFrom('download_parts')
    .select(['storage_key', 'size'])
    .where('storage_key', 'is not', null)
    .where('ready_at', 'is not', null)
    .execute();
  for (const part of parts) {
    if (part.storage_key)
      references.push({ key: part.storage_key, role: 'archive', sha256: null, size: null });
  }
  // One object may be named twice (a rendition shared by copies): once is enough.
  return [...new Map(references.map((ref) => [ref.key, ref])).values()];
}

async function backUpLocal(
  root: string,
  backupDir: string,
  ref: Reference,
  before: ManifestObject | undefined,
  report: BackupReport,
): Promise<ManifestObject | null> {
  const source = path.join(root, ...ref.key.split('/'));
  // Synchronous stats: an incremental run stats every object twice, and through the thread pool
  // that was 80% of its time (23 µs a call against 3 µs; docs/benchmarks.md, "Backup"). Only the
  // admin command runs this, so blocking its event loop a moment costs nothing.
  const info = statSync(source, { throwIfNoEntry: false });
  if (!info) return null;
  const target = objectPath(backupDir, ref.key);
  if (
    before &&
    before.size === info.size &&
    before.mtimeMs === info.mtimeMs &&
    existsSync(target)
  ) {
    return { ...before, role: ref.role };
  }
  const copied = await copyHashing(source, target);
  report.copied++;
  report.copiedBytes += copied.size;
  return {
    key: ref.key,
    size: copied.size,
    sha256: copied.sha256,
    mtimeMs: info.mtimeMs,
    role: ref.role,
  };
}

/** On S3 the bucket's versioning or replication holds the bytes; the manifest says what to hold. */
async function recordRemote(storage: Storage, ref: Reference): Promise<ManifestObject | null> {
  const info = await storage.stat(ref.key);
  if (!info) return null;
  return {
    key: ref.key,
    size: info.size,
    sha256: ref.role === 'original' && !isEncryptedKey(ref.key) ? ref.sha256 : null,
    role: ref.role,
  };
}

export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function eachLimited<T>(
  items: T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
