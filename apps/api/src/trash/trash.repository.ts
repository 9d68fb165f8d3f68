import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { CollectionsTable, FilesTable, TrashTable } from '../db/database.js';
import { paginate, type Page } from '../db/pagination.js';
import { keysOfRow } from '../files/files.keys.js';

export type TrashRow = Selectable<TrashTable>;
export type FileData = Selectable<FilesTable>;
export type CollectionData = Selectable<CollectionsTable> & { tags: string[] };

export async function insertTrash(db: Db, rows: Insertable<TrashTable>[]): Promise<void> {
  // Bounded statements: SQLite takes at most 32,766 parameters, 14 a row.
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('trash')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** The trash as people see it: files and collections, not the files deleted with a collection. */
export function listTrash(
  db: Db,
  teamId: string,
  page: { limit?: number; lastKey?: string | undefined },
): Promise<Page<TrashRow>> {
  return paginate(
    db
      .selectFrom('trash')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('parent_id', 'is', null)
      .orderBy('deleted_at', 'desc')
      .orderBy('id', 'desc'),
    {
      sortColumn: 'trash.deleted_at',
      idColumn: 'trash.id',
      sortValue: (row) => row.deleted_at,
      id: (row) => row.id,
      direction: 'desc',
      limit: page.limit,
      lastKey: page.lastKey,
    },
  );
}

export async function trashTotals(
  db: Db,
  teamId: string,
): Promise<{ items: number; bytes: number }> {
  const row = await db
    .selectFrom('trash')
    .select([
      sql<string | number>`coalesce(sum(case when parent_id is null then 1 else 0 end), 0)`.as(
        'items',
      ),
      sql<string | number>`coalesce(sum(case when kind = 'file' then size else 0 end), 0)`.as(
        'bytes',
      ),
    ])
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return { items: Number(row.items), bytes: Number(row.bytes) };
}

export function findTrash(db: Db, teamId: string, ids: string[]): Promise<TrashRow[]> {
  return db
    .selectFrom('trash')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', 'in', ids)
    .execute();
}

/** The files deleted with a collection, and those deleted from it before. */
export function filesOfTrashedCollection(
  db: Db,
  teamId: string,
  collectionId: string,
): Promise<TrashRow[]> {
  return db
    .selectFrom('trash')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('kind', '=', 'file')
    .where('collection_id', '=', collectionId)
    .execute();
}

/** Removes trash rows; answers how many were there (another request may have taken them). */
export async function deleteTrash(db: Db, ids: string[]): Promise<number> {
  let removed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const result = await db
      .deleteFrom('trash')
      .where('id', 'in', ids.slice(i, i + 500))
      .executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}

/** Items older than `before`, oldest first: the purge's next batch. */
export function expiredTrash(db: Db, before: number, limit: number): Promise<TrashRow[]> {
  return db
    .selectFrom('trash')
    .selectAll()
    .where('deleted_at', '<', before)
    .where('parent_id', 'is', null)
    .orderBy('deleted_at')
    .limit(limit)
    .execute();
}

/**
 * Every object a trashed file has in storage: its original and its renditions (the keys
 * files.keys.ts derives too, since a rendition job may have been writing them).
 */
export function objectKeysOf(file: FileData): string[] {
  const derived = keysOfRow(file);
  return [
    ...new Set(
      [
        file.storage_key,
        file.thumbnail_key,
        file.preview_key,
        derived.thumbnail,
        derived.preview,
      ].filter((key): key is string => key !== null),
    ),
  ];
}

/** Queues objects for `storage.delete-queued`, in the transaction that removed their rows. */
export async function queueObjectDeletions(db: Db, keys: string[], now: number): Promise<void> {
  for (let i = 0; i < keys.length; i += 500) {
    await db
      .insertInto('storage_deletions')
      .values(keys.slice(i, i + 500).map((key) => ({ key, queued_at: now })))
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
}
