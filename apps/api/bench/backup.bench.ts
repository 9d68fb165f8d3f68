// `npm run admin -- backup` on the embedded defaults (SQLite, local disk) at 100,000 files' rows
// and 10 GiB of objects: a first, full backup into an empty folder, then, after 100 new files, an
// incremental one (goal: under 10 s). Baseline, in the same run: the least any incremental backup
// of local disk must do, a `stat` of every source object plus a copy of the 100 new ones.
// BENCH_BACKUP_FILES and BENCH_BACKUP_GIB run it smaller.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Insertable } from 'kysely';
import { backup, type BackupReport } from '../src/backup/backup.js';
import type { CollectionRow } from '../src/db/rows.js';
import { loadConfig } from '../src/config/config.js';
import type { AppContext } from '../src/context.js';
import type { FilesTable } from '../src/db/database.js';
import { newId } from '../src/db/ids.js';
import { fileKeys } from '../src/files/files.keys.js';
import { createContext } from '../src/runtime.js';
import { createCollection } from '../test/files/files-world.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import type { BenchRow } from './file-list.bench.js';

const GIB = 1024 ** 3;
const MIB = 1024 * 1024;
const FILES = Number(process.env.BENCH_BACKUP_FILES ?? 100_000);
const TOTAL_BYTES = Number(process.env.BENCH_BACKUP_GIB ?? 10) * GIB;
const NEW_FILES = 100;
const COLLECTIONS = 10;
/** 17 columns a row: 17,000 parameters a statement, under SQLite's 32,766. */
const ROWS_PER_INSERT = 1_000;
/** Statements per transaction while the world is built. */
const INSERTS_PER_TRANSACTION = 10;

interface WorldFile {
  row: Insertable<FilesTable>;
  /** Where the object lives on local disk. */
  source: string;
}

/**
 * Writes `count` files' objects straight to DATA_DIR/files/<key> (plain writes, no fsync) and
 * answers their rows, with each object's real SHA-256 and size. Each object is a slice of one
 * random block with the file's number in its first bytes, so no two are alike.
 */
function writeObjects(
  root: string,
  block: Buffer,
  collections: CollectionRow[],
  uploadedBy: string,
  count: number,
  size: number,
  first: number,
  at: number,
): WorldFile[] {
  const files: WorldFile[] = [];
  const perCollection = Math.ceil(count / collections.length);
  for (let i = 0; i < count; i++) {
    const n = first + i;
    const collection = collections[Math.floor(i / perCollection)] as CollectionRow;
    const id = newId();
    const key = fileKeys({
      teamId: collection.team_id,
      collectionId: collection.id,
      fileId: id,
    }).original;
    const offset = (n * 4_099) % (block.length - size);
    const data = Buffer.from(block.subarray(offset, offset + size));
    data.writeUInt32LE(n, 0);
    const source = path.join(root, ...key.split('/'));
    mkdirSync(path.dirname(source), { recursive: true });
    writeFileSync(source, data);
    files.push({
      source,
      row: {
        id,
        team_id: collection.team_id,
        collection_id: collection.id,
        name: `file-${n}.bin`,
        original_name: `file-${n}.bin`,
        content_type: 'application/octet-stream',
        size,
        sha256: createHash('sha256').update(data).digest('hex'),
        storage_key: key,
        uploaded_by: uploadedBy,
        rendition_status: 'none',
        thumbnail_key: null,
        preview_key: null,
        width: null,
        height: null,
        created_at: at + n,
        updated_at: at + n,
      },
    });
  }
  return files;
}

async function insertRows(ctx: AppContext, files: WorldFile[]): Promise<void> {
  const perTransaction = ROWS_PER_INSERT * INSERTS_PER_TRANSACTION;
  for (let start = 0; start < files.length; start += perTransaction) {
    await ctx.db.transaction().execute(async (trx) => {
      const end = Math.min(start + perTransaction, files.length);
      for (let from = start; from < end; from += ROWS_PER_INSERT) {
        const rows = files.slice(from, Math.min(from + ROWS_PER_INSERT, end)).map((f) => f.row);
        await trx.insertInto('files').values(rows).execute();
      }
    });
  }
  const counts = new Map<string, number>();
  for (const { row } of files)
    counts.set(row.collection_id, (counts.get(row.collection_id) ?? 0) + 1);
  for (const [id, count] of counts)
    await ctx.db
      .updateTable('collections')
      .set((eb) => ({ files_count: eb('files_count', '+', count), status: 'ready' }))
      .where('id', '=', id)
      .execute();
}

/** Writes the dirty pages out, so a timed step does not pay for the writes of the one before. */
function flush(): void {
  spawnSync('sync');
}

async function timed<T>(task: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await task();
  return { ms: performance.now() - started, value };
}

function check(report: BackupReport, objects: number, copied: number, bytes: number): void {
  if (
    report.objects !== objects ||
    report.copied !== copied ||
    report.copiedBytes !== bytes ||
    report.missing.length ||
    report.damaged.length
  )
    throw new Error(
      `Unexpected backup report: ${JSON.stringify({ ...report, missing: report.missing.length, damaged: report.damaged.length })}`,
    );
}

export async function benchBackup(): Promise<BenchRow[]> {
  const size = Math.floor(TOTAL_BYTES / FILES);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-backup-data-'));
  const backupDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-backup-out-'));
  const baselineDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-backup-floor-'));
  let ctx: AppContext | undefined;
  try {
    ctx = await createContext(
      loadConfig({
        DATA_DIR: dataDir,
        APP_SECRET: 'bench-secret-bench-secret-bench-secret',
        LOG_LEVEL: 'silent',
        SERVE_WEB: 'false',
      }),
    );
    if (ctx.config.storage.kind !== 'local' || ctx.config.database.kind !== 'sqlite')
      throw new Error('The backup benchmark runs on the embedded defaults (SQLite, local disk).');
    const root = ctx.config.storage.root;
    const owner = await createUser(ctx, { email: 'bench@example.test' });
    const team = await createTeam(ctx, { owner });
    const collections: CollectionRow[] = [];
    for (let c = 0; c < COLLECTIONS; c++)
      collections.push(
        await createCollection(ctx, {
          teamId: team.id,
          createdBy: owner.id,
          mode: 'collaborative',
          name: `Bench ${c + 1}`,
        }),
      );
    const block = randomBytes(4 * MIB + size);
    const at = ctx.clock();

    const world = await timed(async () => {
      const files = writeObjects(root, block, collections, owner.id, FILES, size, 0, at);
      await insertRows(ctx as AppContext, files);
      flush();
      return files;
    });
    console.log(
      `  (world: ${FILES.toLocaleString('en')} files of ${size.toLocaleString('en')} bytes, ${((FILES * size) / GIB).toFixed(2)} GiB, built in ${(world.ms / 1000).toFixed(1)} s)`,
    );

    const deps = { config: ctx.config, db: ctx.db, storage: ctx.storage };
    const day = Date.UTC(2026, 10, 27, 3);
    const full = await timed(() => backup(deps, backupDir, new Date(day)));
    check(full.value, FILES, FILES, FILES * size);
    flush();

    // 100 new files in the first collection, as a day's uploads would leave them.
    const added = writeObjects(
      root,
      block,
      collections.slice(0, 1),
      owner.id,
      NEW_FILES,
      size,
      FILES,
      at,
    );
    await insertRows(ctx, added);
    flush();
    const sources = [...world.value, ...added].map((f) => f.source);

    // The floor: every source object stat'ed (is it new, did it change?), the new ones copied.
    const floor = await timed(async () => {
      for (const source of sources) statSync(source);
      for (const file of added) {
        const target = path.join(baselineDir, ...file.row.storage_key.split('/'));
        mkdirSync(path.dirname(target), { recursive: true });
        copyFileSync(file.source, target);
      }
      return Promise.resolve();
    });

    const incremental = await timed(() => backup(deps, backupDir, new Date(day + 86_400_000)));
    check(incremental.value, FILES + NEW_FILES, NEW_FILES, NEW_FILES * size);
    flush();
    const unchanged = await timed(() => backup(deps, backupDir, new Date(day + 2 * 86_400_000)));
    check(unchanged.value, FILES + NEW_FILES, 0, 0);

    const base = floor.ms;
    return [
      {
        name: `full backup, ${FILES.toLocaleString('en')} files (not the goal)`,
        ms: full.ms,
        ratio: full.ms / base,
      },
      {
        name: `incremental after ${NEW_FILES} new (goal < 10 s)`,
        ms: incremental.ms,
        ratio: incremental.ms / base,
      },
      { name: 'incremental, nothing new', ms: unchanged.ms, ratio: unchanged.ms / base },
      { name: `baseline: stat all, copy ${NEW_FILES} new`, ms: base, ratio: 1 },
      {
        name: 'incremental copied: objects',
        ms: incremental.value.copied,
        ratio: incremental.value.copied / NEW_FILES,
        unit: '#',
      },
      {
        name: 'incremental copied: bytes',
        ms: incremental.value.copiedBytes / MIB,
        ratio: incremental.value.copiedBytes / (NEW_FILES * size),
        unit: 'MiB',
      },
      {
        name: 'database snapshot (VACUUM INTO)',
        ms: incremental.value.database.bytes / MIB,
        ratio: 1,
        unit: 'MiB',
      },
    ];
  } finally {
    await ctx?.db.destroy();
    for (const dir of [dataDir, backupDir, baselineDir])
      rmSync(dir, { recursive: true, force: true });
  }
}
