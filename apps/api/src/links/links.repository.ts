import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { FilesTable, UploadLinksTable } from '../db/database.js';

export type UploadLinkRow = Selectable<UploadLinksTable>;

export async function insertLink(db: Db, row: UploadLinkRow): Promise<void> {
  await db.insertInto('upload_links').values(row).execute();
}

export function findLinkInCollection(
  db: Db,
  collectionId: string,
  linkId: string,
): Promise<UploadLinkRow | undefined> {
  return db
    .selectFrom('upload_links')
    .selectAll()
    .where('collection_id', '=', collectionId)
    .where('id', '=', linkId)
    .executeTakeFirst();
}

export function findLinkById(db: Db, linkId: string): Promise<UploadLinkRow | undefined> {
  return db.selectFrom('upload_links').selectAll().where('id', '=', linkId).executeTakeFirst();
}

export function findLinkByTokenHash(db: Db, hash: string): Promise<UploadLinkRow | undefined> {
  return db
    .selectFrom('upload_links')
    .selectAll()
    .where('token_hash', '=', hash)
    .executeTakeFirst();
}

export function listCollectionLinks(db: Db, collectionId: string): Promise<UploadLinkRow[]> {
  return db
    .selectFrom('upload_links')
    .selectAll()
    .where('collection_id', '=', collectionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function updateLink(
  db: Db,
  linkId: string,
  changes: Partial<Omit<UploadLinkRow, 'id' | 'team_id' | 'collection_id'>>,
): Promise<void> {
  await db.updateTable('upload_links').set(changes).where('id', '=', linkId).execute();
}

export async function deleteLink(db: Db, linkId: string): Promise<boolean> {
  const result = await db.deleteFrom('upload_links').where('id', '=', linkId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Files and bytes that came through each link and are still in the collection. */
export async function linkFileCounts(
  db: Db,
  linkIds: string[],
): Promise<Map<string, { files: number; bytes: number }>> {
  if (linkIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('files')
    .select([
      'link_id',
      sql<string | number>`count(*)`.as('files'),
      sql<string | number>`coalesce(sum(size), 0)`.as('bytes'),
    ])
    .where('link_id', 'in', linkIds)
    .groupBy('link_id')
    .execute();
  return new Map(
    rows.map((r) => [r.link_id ?? '', { files: Number(r.files), bytes: Number(r.bytes) }]),
  );
}

/**
 * Reserves one file of `bytes` on a link still open at `now`: one conditional UPDATE, so parallel
 * creations never reserve past max_files or max_bytes (PostgreSQL re-checks the condition on the
 * row it waited for; SQLite has one writer). False when the link is full, closed or gone.
 */
export async function reserveOnLink(
  db: Db,
  linkId: string,
  bytes: number,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('upload_links')
    .set((eb) => ({
      reserved_files: eb('reserved_files', '+', 1),
      reserved_bytes: eb('reserved_bytes', '+', bytes),
    }))
    .where('id', '=', linkId)
    .where('enabled', '=', 1)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .where((eb) =>
      eb.or([
        eb('max_files', 'is', null),
        eb(eb('reserved_files', '+', 1), '<=', eb.ref('max_files')),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb('max_bytes', 'is', null),
        eb(eb('reserved_bytes', '+', bytes), '<=', eb.ref('max_bytes')),
      ]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives back what an upload reserved (it failed, was abandoned, or its guest deleted it). */
export async function releaseOnLink(db: Db, linkId: string, bytes: number): Promise<void> {
  await db
    .updateTable('upload_links')
    .set((eb) => ({
      reserved_files: sql<number>`case when ${eb.ref('reserved_files')} > 0 then ${eb.ref('reserved_files')} - 1 else 0 end`,
      reserved_bytes: sql<number>`case when ${eb.ref('reserved_bytes')} > ${bytes} then ${eb.ref('reserved_bytes')} - ${bytes} else 0 end`,
    }))
    .where('id', '=', linkId)
    .execute();
}

export type GuestFileRow = Pick<
  Selectable<FilesTable>,
  'id' | 'name' | 'content_type' | 'size' | 'created_at' | 'team_id' | 'collection_id'
>;

/** The files one guest sent through one link, newest first. */
export function listGuestFiles(db: Db, linkId: string, guestId: string): Promise<GuestFileRow[]> {
  return db
    .selectFrom('files')
    .select(['id', 'name', 'content_type', 'size', 'created_at', 'team_id', 'collection_id'])
    .where('link_id', '=', linkId)
    .where('guest_id', '=', guestId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
}
