import { sql } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { DownloadPartRow, DownloadRow } from './downloads.presenter.js';
import { selectionQuery, type DownloadSelection } from './download-selection.js';

/** The statements of collection downloads: requests, their parts, and what they select. */

export function insertDownload(db: Db, row: DownloadRow): Promise<unknown> {
  return db.insertInto('downloads').values(row).execute();
}

/** The member's downloads being prepared now. */
export function downloadsInProgress(db: Db, userId: string): Promise<DownloadRow[]> {
  return db
    .selectFrom('downloads')
    .selectAll()
    .where('requested_by', '=', userId)
    .where('status', '=', 'inProgress')
    .execute();
}

/** The member's ready, unexpired downloads of a collection, newest first. */
export function readyDownloadsOf(
  db: Db,
  userId: string,
  collectionId: string,
  now: number,
): Promise<DownloadRow[]> {
  return db
    .selectFrom('downloads')
    .selectAll()
    .where('requested_by', '=', userId)
    .where('collection_id', '=', collectionId)
    .where('status', '=', 'ready')
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
}

/** How many files and bytes a selection holds now, and when the newest of them last changed. */
export async function selectionTotals(
  db: Db,
  selection: DownloadSelection,
): Promise<{ count: number; bytes: number; changed: number }> {
  const totals = await selectionQuery(db, selection)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>('files.size').as('bytes'),
      eb.fn.max<number | string | null>('files.updated_at').as('changed'),
    ])
    .executeTakeFirstOrThrow();
  return {
    count: Number(totals.count),
    bytes: Number(totals.bytes ?? 0),
    changed: Number(totals.changed ?? 0),
  };
}

/** The bytes the team stores in files. */
export async function teamStoredBytes(db: Db, teamId: string): Promise<number> {
  const stored = await db
    .selectFrom('files')
    .select((eb) => eb.fn.sum<number | string | null>('size').as('bytes'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(stored.bytes ?? 0);
}

/** The bytes the team's archives hold or will: being prepared, or ready and not expired. */
export async function teamArchiveBytes(db: Db, teamId: string, now: number): Promise<number> {
  const held = await db
    .selectFrom('downloads')
    .select((eb) => eb.fn.sum<number | string | null>('total_bytes').as('bytes'))
    .where('team_id', '=', teamId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'inProgress'),
        eb.and([eb('status', '=', 'ready'), eb('expires_at', '>', now)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(held.bytes ?? 0);
}

export function partsOf(db: Db, downloadId: string): Promise<DownloadPartRow[]> {
  return db
    .selectFrom('download_parts')
    .selectAll()
    .where('download_id', '=', downloadId)
    .orderBy('part_number')
    .execute();
}

export function findPart(
  db: Db,
  downloadId: string,
  partNumber: number,
): Promise<DownloadPartRow | undefined> {
  return db
    .selectFrom('download_parts')
    .selectAll()
    .where('download_id', '=', downloadId)
    .where('part_number', '=', partNumber)
    .executeTakeFirst();
}

// The build, its plan and its outcome (build-download.job.ts, download-plan.ts,
// download-outcome.ts), and the sweep of what downloads leave (expire-downloads.job.ts).

export function findDownloadById(db: Db, id: string): Promise<DownloadRow | undefined> {
  return db.selectFrom('downloads').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The files of a selection as the plan lists them: oldest first, ties by id. */
export function selectionFiles(
  db: Db,
  selection: DownloadSelection,
): Promise<{ id: string; name: string; size: number; contentType: string }[]> {
  return selectionQuery(db, selection)
    .select([
      'files.id as id',
      'files.name as name',
      'files.size as size',
      'files.content_type as contentType',
    ])
    .orderBy('files.created_at')
    .orderBy('files.id')
    .execute();
}

export async function insertPlan(
  db: Db,
  downloadId: string,
  entries: { part: number; fileId: string; entryName: string; compress: boolean }[],
  parts: number[],
  totals: { fileCount: number; totalBytes: number; now: number },
  batch: number,
): Promise<void> {
  for (let i = 0; i < entries.length; i += batch) {
    await db
      .insertInto('download_entries')
      .values(
        entries.slice(i, i + batch).map((entry, offset) => ({
          download_id: downloadId,
          position: i + offset,
          part_number: entry.part,
          file_id: entry.fileId,
          entry_name: entry.entryName,
          compress: entry.compress ? 1 : 0,
        })),
      )
      .execute();
  }
  await db
    .insertInto('download_parts')
    .values(
      parts.map((fileCount, index) => ({
        download_id: downloadId,
        part_number: index + 1,
        file_count: fileCount,
        storage_key: null,
        size: null,
        ready_at: null,
      })),
    )
    .execute();
  await db
    .updateTable('downloads')
    .set({
      total_parts: parts.length,
      file_count: totals.fileCount,
      total_bytes: totals.totalBytes,
      updated_at: totals.now,
    })
    .where('id', '=', downloadId)
    .execute();
}

/** A batch of a part's planned entries after `after`, with the file each names if it is left. */
export function partEntryBatch(
  db: Db,
  download: Pick<DownloadRow, 'id' | 'collection_id'>,
  partNumber: number,
  after: number,
  limit: number,
) {
  return db
    .selectFrom('download_entries as e')
    .leftJoin('files as f', (join) =>
      join.onRef('f.id', '=', 'e.file_id').on('f.collection_id', '=', download.collection_id),
    )
    .select(['e.position', 'e.entry_name', 'e.compress', 'f.storage_key', 'f.size', 'f.created_at'])
    .where('e.download_id', '=', download.id)
    .where('e.part_number', '=', partNumber)
    .where('e.position', '>', after)
    .orderBy('e.position')
    .limit(limit)
    .execute();
}

/** Records a stored part; false when its download went meanwhile. */
export async function recordStoredPart(
  db: Db,
  downloadId: string,
  partNumber: number,
  stored: { key: string; size: number; fileCount: number; now: number },
): Promise<boolean> {
  const recorded = await db
    .updateTable('download_parts')
    .set({
      storage_key: stored.key,
      size: stored.size,
      file_count: stored.fileCount,
      ready_at: stored.now,
    })
    .where('download_id', '=', downloadId)
    .where('part_number', '=', partNumber)
    .executeTakeFirst();
  if (Number(recorded.numUpdatedRows) === 0) return false;
  await db
    .updateTable('downloads')
    .set({ updated_at: stored.now })
    .where('id', '=', downloadId)
    .execute();
  return true;
}

export async function missingPartNumbers(db: Db, downloadId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('download_parts')
    .select('part_number')
    .where('download_id', '=', downloadId)
    .where('storage_key', 'is', null)
    .orderBy('part_number')
    .execute();
  return rows.map((r) => r.part_number);
}

export async function partNumbers(db: Db, downloadId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('download_parts')
    .select('part_number')
    .where('download_id', '=', downloadId)
    .execute();
  return rows.map((r) => r.part_number);
}

export async function deletePlanRows(db: Db, downloadId: string, parts: boolean): Promise<void> {
  if (parts) await db.deleteFrom('download_parts').where('download_id', '=', downloadId).execute();
  await db.deleteFrom('download_entries').where('download_id', '=', downloadId).execute();
}

/** In progress → ready, with its file count from its parts; false when it was no longer in progress. */
export async function markReadyRow(
  db: Db,
  downloadId: string,
  at: { now: number; expiresAt: number },
): Promise<{ parts: number } | null> {
  const parts = await db
    .selectFrom('download_parts')
    .select(['file_count'])
    .where('download_id', '=', downloadId)
    .execute();
  const done = await db
    .updateTable('downloads')
    .set({
      status: 'ready',
      ready_at: at.now,
      expires_at: at.expiresAt,
      updated_at: at.now,
      file_count: parts.reduce((sum, part) => sum + part.file_count, 0),
    })
    .where('id', '=', downloadId)
    .where('status', '=', 'inProgress')
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 0 ? null : { parts: parts.length };
}

/** In progress → failed; the row as it is now, or undefined when it was no longer in progress. */
export function markFailedRow(
  db: Db,
  downloadId: string,
  error: string,
  now: number,
): Promise<DownloadRow | undefined> {
  return db
    .updateTable('downloads')
    .set({ status: 'failed', error: error.slice(0, 1000), updated_at: now })
    .where('id', '=', downloadId)
    .where('status', '=', 'inProgress')
    .returningAll()
    .executeTakeFirst();
}

export function requesterOf(
  db: Db,
  download: Pick<DownloadRow, 'requested_by'>,
): Promise<{ email: string | null; locale: string; nickname: string | null } | undefined> {
  return db
    .selectFrom('users')
    .select(['email', 'locale', 'nickname'])
    .where('id', '=', download.requested_by)
    .executeTakeFirst();
}

export async function readyPastExpiry(db: Db, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('downloads')
    .select('id')
    .where('status', '=', 'ready')
    .where('expires_at', '<=', now)
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function markExpired(db: Db, downloadId: string, now: number): Promise<void> {
  await db
    .updateTable('downloads')
    .set({ status: 'expired', updated_at: now })
    .where('id', '=', downloadId)
    .execute();
}

export async function inProgressSince(db: Db, before: number): Promise<string[]> {
  const rows = await db
    .selectFrom('downloads')
    .select('id')
    .where('status', '=', 'inProgress')
    .where('updated_at', '<', before)
    .execute();
  return rows.map((r) => r.id);
}

/** Whether a pending or running job has this dedupe key. */
export async function hasLiveJob(db: Db, dedupeKey: string): Promise<boolean> {
  const job = await db
    .selectFrom('jobs')
    .select('id')
    .where('dedupe_key', '=', dedupeKey)
    .where('status', 'in', ['pending', 'running'])
    .executeTakeFirst();
  return job !== undefined;
}

export async function failedWithParts(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('downloads')
    .select('id')
    .where('status', '=', 'failed')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('download_parts')
          .select(sql`1`.as('one'))
          .whereRef('download_parts.download_id', '=', 'downloads.id'),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteEndedBefore(db: Db, before: number): Promise<void> {
  await db
    .deleteFrom('downloads')
    .where('status', 'in', ['expired', 'failed'])
    .where('updated_at', '<', before)
    .execute();
}

export function planState(
  db: Db,
  downloadId: string,
): Promise<Pick<DownloadRow, 'total_parts' | 'status'> | undefined> {
  return db
    .selectFrom('downloads')
    .select(['total_parts', 'status'])
    .where('id', '=', downloadId)
    .executeTakeFirst();
}
