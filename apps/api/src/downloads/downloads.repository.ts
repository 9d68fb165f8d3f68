import type { Db, DbKind } from '../db/create-db.js';
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

/**
 * Takes the team's requests one at a time until the transaction ends, on PostgreSQL (SQLite has
 * one writer). FOR NO KEY UPDATE leaves foreign keys to the team unhindered.
 */
export async function lockTeamDownloads(db: Db, kind: DbKind, teamId: string): Promise<void> {
  if (kind !== 'postgres') return;
  await db.selectFrom('teams').select('id').where('id', '=', teamId).forNoKeyUpdate().execute();
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
