import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { Config } from '../config/config.js';
import type { Clock } from '../context.js';
import type { Db } from '../db/create-db.js';
import type { FindingKind, StorageVerificationRunsTable } from '../db/database.js';
import { newId } from '../db/ids.js';
import type { Selectable } from 'kysely';
import { EncryptionKeyError } from '../storage/encryption.js';
import { StorageNotFoundError, type Storage } from '../storage/storage.js';
import { readRate, type ReadRate } from './read-rate.js';
import { referencedObjects } from './referenced-objects.js';

export interface VerifyStorageDeps {
  config: Config;
  db: Db;
  storage: Storage;
  clock: Clock;
}

export interface VerifyStorageOptions {
  /** Objects written less than this long ago are never orphans (uploads in flight). */
  orphanGraceMs?: number;
  /** Bytes read per second at most; default VERIFY_STORAGE_MAX_MB_PER_SECOND; 0: no bound. */
  maxBytesPerSecond?: number;
  /** Stops the run between reads; its place is kept, and the next call goes on from there. */
  signal?: AbortSignal;
  /** Files read per database query. */
  batchSize?: number;
  /** Called once a file's outcome and the run's place are stored. */
  onFileChecked?: (fileId: string) => void;
}

export const DEFAULT_ORPHAN_GRACE_MS = 24 * 60 * 60_000;
/** Renditions are small images read whole for sharp; anything larger is not one of ours. */
const MAX_RENDITION_BYTES = 64 * 1024 * 1024;
const DEFAULT_BATCH = 100;

export interface Finding {
  kind: FindingKind;
  key: string;
  fileId: string | null;
  fileName: string | null;
  collectionId: string | null;
  collectionName: string | null;
  teamId: string | null;
  teamName: string | null;
  detail: string;
  /** When a run first found it (epoch ms). */
  foundAt: number;
}

export interface VerifyStorageReport {
  runId: string;
  startedAt: number;
  /** This call went on with a run an earlier call (or process) had started. */
  resumed: boolean;
  /** false: stopped by the signal before the end; the next call resumes it. */
  complete: boolean;
  /** Files checked by the run so far, and by this call alone. */
  filesChecked: number;
  filesCheckedNow: number;
  /** Bytes read by the run so far. */
  bytesRead: number;
  /** Objects the orphan search listed (this call; 0 when it did not get that far). */
  objectsListed: number;
  /** Every finding standing now: this run's and, for files it has not reached yet, earlier ones. */
  findings: Finding[];
  counts: Record<FindingKind, number>;
}

type RunRow = Selectable<StorageVerificationRunsTable>;

interface FileToCheck {
  id: string;
  storage_key: string;
  size: number;
  sha256: string;
  rendition_status: string;
  thumbnail_key: string | null;
  preview_key: string | null;
}

interface Problem {
  key: string;
  kind: FindingKind;
  detail: string;
}

class Stopped extends Error {}

/**
 * Checks the stored bytes against the database, and reports; it never deletes or rewrites
 * anything. Every original is read through the storage (deciphered when encrypted) and its
 * SHA-256 and size compared with its row: `damaged` when they differ, `missing` when there is no
 * object. The thumbnail and preview of a file whose renditions are ready must be readable images:
 * `rendition` otherwise (the rendition job can make them again). Then every stored object no row
 * refers to and older than the grace period is an `orphan`.
 *
 * Files are checked in id order and the run's place is stored with each file's outcome, so a run
 * stopped by a restart (or the signal) goes on from the next file; a new run starts once the last
 * one is done. Reads are paced to `maxBytesPerSecond`.
 */
export async function verifyStorage(
  deps: VerifyStorageDeps,
  options: VerifyStorageOptions = {},
): Promise<VerifyStorageReport> {
  const { db, clock } = deps;
  const signal = options.signal;
  const rate = readRate(options.maxBytesPerSecond ?? deps.config.integrity.maxBytesPerSecond);
  const batchSize = options.batchSize ?? DEFAULT_BATCH;

  const { run, resumed } = await currentRun(db, clock);
  let filesCheckedNow = 0;
  let objectsListed = 0;
  let complete = false;
  try {
    if (run.phase === 'files') {
      let after = run.last_file_id;
      for (;;) {
        let query = db
          .selectFrom('files')
          .select([
            'id',
            'storage_key',
            'size',
            'sha256',
            'rendition_status',
            'thumbnail_key',
            'preview_key',
          ])
          .orderBy('id')
          .limit(batchSize);
        if (after !== null) query = query.where('id', '>', after);
        const rows = await query.execute();
        for (const file of rows) {
          if (signal?.aborted) throw new Stopped();
          const { problems, bytes } = await checkFile(deps.storage, file, rate, signal);
          await recordFile(db, run, file, problems, bytes, clock());
          run.files_checked += 1;
          run.bytes_read += bytes;
          filesCheckedNow += 1;
          after = file.id;
          options.onFileChecked?.(file.id);
        }
        if (rows.length < batchSize) break;
      }
      await db
        .updateTable('storage_verification_runs')
        .set({ phase: 'orphans', updated_at: clock() })
        .where('id', '=', run.id)
        .execute();
      run.phase = 'orphans';
    }
    if (run.phase === 'orphans') {
      if (signal?.aborted) throw new Stopped();
      objectsListed = await findOrphans(deps, run, options.orphanGraceMs, signal);
      await finishRun(db, run, clock());
    }
    complete = true;
  } catch (error) {
    if (!(error instanceof Stopped) && !(signal?.aborted && isAbort(error))) throw error;
  }
  return {
    runId: run.id,
    startedAt: run.started_at,
    resumed,
    complete,
    filesChecked: run.files_checked,
    filesCheckedNow,
    bytesRead: run.bytes_read,
    objectsListed,
    ...(await standingFindings(db)),
  };
}

/** The run left unfinished, or a new one. */
async function currentRun(db: Db, clock: Clock): Promise<{ run: RunRow; resumed: boolean }> {
  const open = await db
    .selectFrom('storage_verification_runs')
    .selectAll()
    .where('phase', '!=', 'done')
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (open) return { run: open, resumed: true };
  const now = clock();
  const run: RunRow = {
    id: newId(),
    started_at: now,
    phase: 'files',
    last_file_id: null,
    files_checked: 0,
    bytes_read: 0,
    updated_at: now,
    finished_at: null,
  };
  await db.insertInto('storage_verification_runs').values(run).execute();
  return { run, resumed: false };
}

async function checkFile(
  storage: Storage,
  file: FileToCheck,
  rate: ReadRate,
  signal: AbortSignal | undefined,
): Promise<{ problems: Problem[]; bytes: number }> {
  const problems: Problem[] = [];
  let bytes = 0;
  const original = await checkOriginal(storage, file, rate, signal);
  bytes += original.bytes;
  if (original.problem) problems.push(original.problem);
  if (file.rendition_status === 'ready') {
    for (const [name, key] of [
      ['thumbnail', file.thumbnail_key],
      ['preview', file.preview_key],
    ] as const) {
      if (key === null) continue;
      const rendition = await checkRendition(storage, name, key, rate, signal);
      bytes += rendition.bytes;
      if (rendition.detail) problems.push({ key, kind: 'rendition', detail: rendition.detail });
    }
  }
  return { problems, bytes };
}

async function open(storage: Storage, key: string): Promise<Readable | null> {
  try {
    return await storage.get(key);
  } catch (error) {
    if (error instanceof StorageNotFoundError) return null;
    throw error;
  }
}

async function checkOriginal(
  storage: Storage,
  file: FileToCheck,
  rate: ReadRate,
  signal: AbortSignal | undefined,
): Promise<{ problem: Problem | null; bytes: number }> {
  const key = file.storage_key;
  let bytes = 0;
  try {
    const body = await open(storage, key);
    if (body === null)
      return { problem: { key, kind: 'missing', detail: 'no object in storage' }, bytes };
    const hash = createHash('sha256');
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        await rate.take(chunk.length, signal);
      }
    } finally {
      body.destroy();
    }
    const sha256 = hash.digest('hex');
    if (bytes !== file.size)
      return {
        problem: {
          key,
          kind: 'damaged',
          detail: `${bytes} bytes stored, ${file.size} recorded`,
        },
        bytes,
      };
    if (sha256 !== file.sha256)
      return {
        problem: {
          key,
          kind: 'damaged',
          detail: `SHA-256 ${sha256} differs from the recorded ${file.sha256}`,
        },
        bytes,
      };
    return { problem: null, bytes };
  } catch (error) {
    // The header of an encrypted object is damaged, or names a key no longer configured.
    if (error instanceof EncryptionKeyError)
      return {
        problem: { key, kind: 'damaged', detail: `cannot be deciphered: ${error.message}` },
        bytes,
      };
    throw error;
  }
}

/** A problem's text, or null when the rendition is a readable image. */
async function checkRendition(
  storage: Storage,
  name: string,
  key: string,
  rate: ReadRate,
  signal: AbortSignal | undefined,
): Promise<{ detail: string | null; bytes: number }> {
  let bytes = 0;
  const chunks: Buffer[] = [];
  try {
    const body = await open(storage, key);
    if (body === null) return { detail: `the ${name} is missing`, bytes };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > MAX_RENDITION_BYTES)
          return { detail: `the ${name} has more than ${MAX_RENDITION_BYTES} bytes`, bytes };
        // Copied: a driver may reuse its read buffers.
        chunks.push(Buffer.from(chunk));
        await rate.take(chunk.length, signal);
      }
    } finally {
      body.destroy();
    }
  } catch (error) {
    if (error instanceof EncryptionKeyError)
      return { detail: `the ${name} cannot be deciphered: ${error.message}`, bytes };
    throw error;
  }
  const image = Buffer.concat(chunks);
  if (image.length === 0) return { detail: `the ${name} is empty`, bytes };
  try {
    const meta = await sharp(image).metadata();
    // A WebP's RIFF header says how long the file is: fewer bytes stored means cut short.
    if (meta.format === 'webp' && image.length >= 8 && image.readUInt32LE(4) + 8 > image.length)
      return { detail: `the ${name} is truncated`, bytes };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { detail: `the ${name} cannot be read as an image (${message})`, bytes };
  }
  return { detail: null, bytes };
}

/**
 * One transaction per file: its findings as this run saw them (those it no longer has go) and the
 * run's place after it, so a restart never checks it twice nor skips it.
 */
async function recordFile(
  db: Db,
  run: RunRow,
  file: FileToCheck,
  problems: Problem[],
  bytes: number,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    let clear = trx.deleteFrom('storage_findings').where('file_id', '=', file.id);
    if (problems.length > 0)
      clear = clear.where(
        'key',
        'not in',
        problems.map((p) => p.key),
      );
    await clear.execute();
    const damaged = problems.some((p) => p.kind === 'damaged' || p.kind === 'missing');
    await trx
      .updateTable('files')
      .set({ damaged_at: damaged ? sql<number>`coalesce(damaged_at, ${now})` : null })
      .where('id', '=', file.id)
      .execute();
    for (const problem of problems) {
      await trx
        .insertInto('storage_findings')
        .values({
          key: problem.key,
          kind: problem.kind,
          file_id: file.id,
          detail: problem.detail,
          run_id: run.id,
          found_at: now,
        })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            kind: problem.kind,
            file_id: file.id,
            detail: problem.detail,
            run_id: run.id,
          }),
        )
        .execute();
    }
    await trx
      .updateTable('storage_verification_runs')
      .set((eb) => ({
        last_file_id: file.id,
        files_checked: eb('files_checked', '+', 1),
        bytes_read: eb('bytes_read', '+', bytes),
        updated_at: now,
      }))
      .where('id', '=', run.id)
      .execute();
  });
}

/** Lists the store and records every object no row claims; answers how many were listed. */
async function findOrphans(
  deps: VerifyStorageDeps,
  run: RunRow,
  graceMs = DEFAULT_ORPHAN_GRACE_MS,
  signal: AbortSignal | undefined,
): Promise<number> {
  const { db, storage, clock } = deps;
  const cutoff = clock() - graceMs;
  const claimed = await referencedObjects(db);
  let listed = 0;
  for await (const object of storage.list()) {
    if (signal?.aborted) throw new Stopped();
    listed++;
    if (object.modifiedAt.getTime() > cutoff || claimed.claims(object.key)) continue;
    const detail = `${object.size} bytes, written ${object.modifiedAt.toISOString()}; no row refers to it`;
    await db
      .insertInto('storage_findings')
      .values({
        key: object.key,
        kind: 'orphan',
        file_id: null,
        detail,
        run_id: run.id,
        found_at: clock(),
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ kind: 'orphan', file_id: null, detail, run_id: run.id }),
      )
      .execute();
  }
  // Orphans this run did not find again are gone or claimed now.
  await db
    .deleteFrom('storage_findings')
    .where('kind', '=', 'orphan')
    .where('run_id', '!=', run.id)
    .execute();
  return listed;
}

async function finishRun(db: Db, run: RunRow, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Findings of files deleted since: nothing is left to restore.
    await trx
      .deleteFrom('storage_findings')
      .where('file_id', 'is not', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('files')
              .select('files.id')
              .whereRef('files.id', '=', 'storage_findings.file_id'),
          ),
        ),
      )
      .execute();
    await trx
      .updateTable('storage_verification_runs')
      .set({ phase: 'done', finished_at: now, updated_at: now })
      .where('id', '=', run.id)
      .execute();
  });
  run.phase = 'done';
  run.finished_at = now;
}

/** Every finding on record, with the file, collection and team it belongs to. */
export async function standingFindings(
  db: Db,
): Promise<{ findings: Finding[]; counts: Record<FindingKind, number> }> {
  const rows = await db
    .selectFrom('storage_findings')
    .leftJoin('files', 'files.id', 'storage_findings.file_id')
    .leftJoin('collections', 'collections.id', 'files.collection_id')
    .leftJoin('teams', 'teams.id', 'files.team_id')
    .select([
      'storage_findings.key',
      'storage_findings.kind',
      'storage_findings.file_id',
      'storage_findings.detail',
      'storage_findings.found_at',
      'files.name as file_name',
      'collections.id as collection_id',
      'collections.name as collection_name',
      'teams.id as team_id',
      'teams.name as team_name',
    ])
    .orderBy('storage_findings.kind')
    .orderBy('storage_findings.key')
    .execute();
  const counts: Record<FindingKind, number> = { damaged: 0, missing: 0, rendition: 0, orphan: 0 };
  const findings = rows.map((row): Finding => {
    counts[row.kind] += 1;
    return {
      kind: row.kind,
      key: row.key,
      fileId: row.file_id,
      fileName: row.file_name,
      collectionId: row.collection_id,
      collectionName: row.collection_name,
      teamId: row.team_id,
      teamName: row.team_name,
      detail: row.detail,
      foundAt: row.found_at,
    };
  });
  return { findings, counts };
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
