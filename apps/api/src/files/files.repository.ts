import {
  sql,
  type Insertable,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Db, DbKind } from '../db/create-db.js';
import type { Database, FilesTable } from '../db/database.js';
import { paginate, type Page, type SortDirection } from '../db/pagination.js';

/** Every query here is scoped by team or collection: an id of another team finds nothing. */

export type FileRow = Selectable<FilesTable>;

export interface FileListFilters {
  /** Uploaded by this user. */
  creator?: string | undefined;
  /** Sent through this upload link. */
  link?: string | undefined;
  /** Sent by a guest of this name. */
  guest?: string | undefined;
  sort: SortDirection;
  /** Epoch ms, inclusive, on updated_at. */
  from?: number | undefined;
  to?: number | undefined;
  limit?: number | undefined;
  lastKey?: string | undefined;
}

export async function insertFile(db: Db, row: Insertable<FilesTable>): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

export function findFile(
  db: Db,
  scope: { teamId: string; collectionId: string },
  fileId: string,
): Promise<FileRow | undefined> {
  return db
    .selectFrom('files')
    .selectAll()
    .where('id', '=', fileId)
    .where('collection_id', '=', scope.collectionId)
    .where('team_id', '=', scope.teamId)
    .executeTakeFirst();
}

/** The row a rendition link points to; the link's route checks the caller's access itself. */
export function findFileById(db: Db, fileId: string): Promise<FileRow | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirst();
}

/** Deletes a file of a collection and returns it; undefined when someone else deleted it first. */
export function deleteFileRow(
  db: Db,
  scope: { teamId: string; collectionId: string },
  fileId: string,
): Promise<FileRow | undefined> {
  return db
    .deleteFrom('files')
    .where('id', '=', fileId)
    .where('collection_id', '=', scope.collectionId)
    .where('team_id', '=', scope.teamId)
    .returningAll()
    .executeTakeFirst();
}

/** `files` within the date window; each list adds its scope (and joins) after. */
function filesWhere(db: Db, filters: Pick<FileListFilters, 'from' | 'to' | 'link' | 'guest'>) {
  let q = db.selectFrom('files');
  if (filters.link !== undefined) q = q.where('files.link_id', '=', filters.link);
  if (filters.guest !== undefined) q = q.where('files.guest_name', '=', filters.guest);
  if (filters.from !== undefined) q = q.where('files.updated_at', '>=', filters.from);
  if (filters.to !== undefined) q = q.where('files.updated_at', '<=', filters.to);
  return q;
}

type ScopeColumn = 'files.team_id' | 'files.collection_id' | 'files.uploaded_by';

/**
 * Keyset on (updated_at, id) within a scope (`column = value` pairs, the list's own first) whose
 * index is (scope columns…, updated_at, id); the cursor is a bound of that index's seek.
 *
 * On PostgreSQL the list's own column goes in as `= any(array)` and leads the ORDER BY. A plain
 * equality makes the column a constant to the planner, which then counts files_updated_idx
 * (updated_at, id) as giving the same order and may walk it, filtering: for a collection whose
 * files are old, that reads most of the table for every page. With the array form only indexes
 * that start with the column give the order. Further scope columns stay plain equalities, which
 * the planner drops from the order (PostgreSQL before 17 cannot keep an index's order past a
 * second `any`). SQLite picks the scope's index by itself.
 */
function scoped<TB extends keyof Database>(
  onPostgres: boolean,
  query: SelectQueryBuilder<Database, TB, FileRow>,
  scope: [ScopeColumn, string][],
  direction: SortDirection,
): SelectQueryBuilder<Database, TB, FileRow> {
  let q = query;
  scope.forEach(([column, value], index) => {
    if (index > 0 || !onPostgres) {
      q = q.where(sql<SqlBool>`${sql.ref(column)} = ${value}`);
    } else {
      q = q.where(sql<SqlBool>`${sql.ref(column)} = any(${sql.val([value])}::text[])`);
    }
    if (index === 0) q = q.orderBy(sql.ref(column), direction);
  });
  return q;
}

const FILE_KEYS = {
  sortColumn: 'files.updated_at',
  idColumn: 'files.id',
  sortValue: (row: FileRow) => row.updated_at,
  id: (row: FileRow) => row.id,
};

function page<TB extends keyof Database>(
  kind: DbKind,
  query: SelectQueryBuilder<Database, TB, FileRow>,
  scope: [ScopeColumn, string][],
  filters: FileListFilters,
): Promise<Page<FileRow>> {
  return paginate(scoped(kind === 'postgres', query, scope, filters.sort), {
    ...FILE_KEYS,
    direction: filters.sort,
    limit: filters.limit,
    lastKey: filters.lastKey,
  });
}

function withCreator(
  scope: [ScopeColumn, string][],
  filters: Pick<FileListFilters, 'creator'>,
): [ScopeColumn, string][] {
  return filters.creator === undefined ? scope : [...scope, ['files.uploaded_by', filters.creator]];
}

/** A collection's files: files_collection_updated_idx, or …_uploader_… with `creator`. */
export function listCollectionFiles(
  db: Db,
  kind: DbKind,
  collectionId: string,
  filters: FileListFilters,
): Promise<Page<FileRow>> {
  return page(
    kind,
    filesWhere(db, filters).selectAll('files'),
    withCreator([['files.collection_id', collectionId]], filters),
    filters,
  );
}

/**
 * The files of every collection of a team that the caller sees (files_team_updated_idx, or
 * …_uploader_… with `creator`). An uploader sees the collections it created and the
 * collaborative ones, as canSeeCollection says; the other roles see all of them.
 */
export function listTeamFiles(
  db: Db,
  kind: DbKind,
  teamId: string,
  viewer: { userId: string; isUploader: boolean },
  filters: FileListFilters,
): Promise<Page<FileRow>> {
  const scope = withCreator([['files.team_id', teamId]], filters);
  const query = filesWhere(db, filters);
  if (!viewer.isUploader) return page(kind, query.selectAll('files'), scope, filters);
  return page(
    kind,
    query
      .innerJoin('collections', 'collections.id', 'files.collection_id')
      .selectAll('files')
      .where((eb) =>
        eb.or([
          eb('collections.created_by', '=', viewer.userId),
          eb('collections.mode', '=', 'collaborative'),
        ]),
      ),
    scope,
    filters,
  );
}

/**
 * The files of every team the user is an active member of, newest first across teams
 * (files_updated_idx), each team's collections seen as in listTeamFiles.
 */
export function listFilesOfUser(
  db: Db,
  kind: DbKind,
  userId: string,
  filters: FileListFilters,
): Promise<Page<FileRow>> {
  let query = filesWhere(db, filters)
    .innerJoin('team_members', (join) =>
      join
        .onRef('team_members.team_id', '=', 'files.team_id')
        .on('team_members.user_id', '=', userId)
        .on('team_members.status', '=', 'active'),
    )
    .innerJoin('collections', 'collections.id', 'files.collection_id')
    .selectAll('files')
    .where((eb) =>
      eb.or([
        eb('team_members.role', '!=', 'uploader'),
        eb('collections.created_by', '=', userId),
        eb('collections.mode', '=', 'collaborative'),
      ]),
    );
  // No index leads with the uploader and is ordered by date: the creator is a filter here.
  if (filters.creator !== undefined) query = query.where('files.uploaded_by', '=', filters.creator);
  return page(kind, query, [], filters);
}

/** When the user last opened or downloaded each of these files; one query per page. */
export async function fileReadTimes(
  db: Db,
  userId: string,
  fileIds: string[],
): Promise<Map<string, number>> {
  if (fileIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('file_reads')
    .select(['file_id', 'read_at'])
    .where('user_id', '=', userId)
    .where('file_id', 'in', fileIds)
    .execute();
  return new Map(rows.map((r) => [r.file_id, r.read_at]));
}

/** Opening a file's preview or downloading it reads the file and its collection (upserts). */
export async function markFileRead(
  db: Db,
  file: { id: string; collection_id: string },
  userId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('file_reads')
    .values({ file_id: file.id, user_id: userId, read_at: now })
    .onConflict((oc) => oc.columns(['file_id', 'user_id']).doUpdateSet({ read_at: now }))
    .execute();
  await db
    .insertInto('collection_reads')
    .values({ collection_id: file.collection_id, user_id: userId, read_at: now })
    .onConflict((oc) => oc.columns(['collection_id', 'user_id']).doUpdateSet({ read_at: now }))
    .execute();
}

/**
 * A file was added (+1) or removed (-1): the collection's count, its status (ready while it has
 * files, draft again without) and its updated_at move, and so does the copy of updated_at each of
 * its tag rows keeps. Resolves to false when the collection is gone.
 */
export async function moveCollection(
  db: Db,
  collection: { teamId: string; collectionId: string },
  change: { delta: 1 | -1; now: number; actorId: string },
): Promise<boolean> {
  const { delta, now, actorId } = change;
  const result = await db
    .updateTable('collections')
    .set({
      files_count: sql<number>`files_count + ${delta}`,
      // SET reads the row as it was, on both databases: the count before this change.
      status:
        delta > 0
          ? 'ready'
          : sql<'draft' | 'ready'>`case when files_count <= 1 then 'draft' else status end`,
      updated_at: now,
      updated_by: actorId,
    })
    .where('id', '=', collection.collectionId)
    .where('team_id', '=', collection.teamId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await db
    .updateTable('collection_tags')
    .set({ updated_at: now })
    .where('collection_id', '=', collection.collectionId)
    .execute();
  return true;
}

/** "Mark as read" of one file: its own mark only, the collection's is left as it was. */
export async function upsertFileRead(
  db: Db,
  fileId: string,
  userId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('file_reads')
    .values({ file_id: fileId, user_id: userId, read_at: now })
    .onConflict((oc) => oc.columns(['file_id', 'user_id']).doUpdateSet({ read_at: now }))
    .execute();
}

/** "Mark as unread": the user's mark of the file is gone, as if never opened. */
export async function deleteFileRead(db: Db, fileId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('file_reads')
    .where('file_id', '=', fileId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * "Mark all as read": every file of the collection not yet read by the user is read now (files
 * already read keep the time they were opened), and so is the collection. One statement for the
 * files, however many there are.
 */
export async function markCollectionFilesRead(
  db: Db,
  collectionId: string,
  userId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('file_reads')
    .columns(['file_id', 'user_id', 'read_at'])
    .expression((eb) =>
      eb
        .selectFrom('files')
        .select((s) => ['files.id', s.val(userId).as('user_id'), s.val(now).as('read_at')])
        .where('files.collection_id', '=', collectionId),
    )
    .onConflict((oc) => oc.columns(['file_id', 'user_id']).doNothing())
    .execute();
  await db
    .insertInto('collection_reads')
    .values({ collection_id: collectionId, user_id: userId, read_at: now })
    .onConflict((oc) => oc.columns(['collection_id', 'user_id']).doUpdateSet({ read_at: now }))
    .execute();
}

/** A collection marked unread by the user: its files keep their own marks. */
export async function deleteCollectionRead(
  db: Db,
  collectionId: string,
  userId: string,
): Promise<void> {
  await db
    .deleteFrom('collection_reads')
    .where('collection_id', '=', collectionId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * The uploader has read what it just uploaded. Its own upload does not make the collection
 * unread for it either: when the uploader had read the collection since its last change, that
 * mark moves to the upload's time; otherwise the collection stays unread, as other changes are.
 */
export async function markOwnUploadRead(
  db: Db,
  file: { id: string; collection_id: string; uploaded_by: string; created_at: number },
  collectionUpdatedAt: number,
): Promise<void> {
  await upsertFileRead(db, file.id, file.uploaded_by, file.created_at);
  await db
    .updateTable('collection_reads')
    .set({ read_at: file.created_at })
    .where('collection_id', '=', file.collection_id)
    .where('user_id', '=', file.uploaded_by)
    .where('read_at', '>=', collectionUpdatedAt)
    .where('read_at', '<', file.created_at)
    .execute();
}

/**
 * The oldest file of a collection holding each of these digests of uploaded bytes
 * (files_collection_received_sha256_idx); a digest the collection does not hold is left out.
 */
export async function findFilesByReceivedHash(
  db: Db,
  collectionId: string,
  digests: readonly string[],
): Promise<FileRow[]> {
  if (digests.length === 0) return [];
  const rows = await db
    .selectFrom('files')
    .selectAll()
    .where('collection_id', '=', collectionId)
    .where('received_sha256', 'in', [...new Set(digests)])
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const oldest = new Map<string, FileRow>();
  for (const row of rows) {
    if (row.received_sha256 !== null && !oldest.has(row.received_sha256))
      oldest.set(row.received_sha256, row);
  }
  return [...oldest.values()];
}

/**
 * The files of a collection whose uploaded bytes another file of it holds too, grouped by digest
 * (the first `maxGroups` digests in order), each group oldest first. `more` when other groups
 * exist beyond them.
 */
export async function listDuplicateFiles(
  db: Db,
  collectionId: string,
  maxGroups: number,
): Promise<{ groups: { sha256: string; files: FileRow[] }[]; more: boolean }> {
  const digests = await db
    .selectFrom('files')
    .select('received_sha256')
    .where('collection_id', '=', collectionId)
    .where('received_sha256', 'is not', null)
    .groupBy('received_sha256')
    .having((eb) => eb.fn.countAll(), '>', 1)
    .orderBy('received_sha256')
    .limit(maxGroups + 1)
    .execute();
  const more = digests.length > maxGroups;
  const wanted = digests.slice(0, maxGroups).flatMap((d) => d.received_sha256 ?? []);
  if (wanted.length === 0) return { groups: [], more };
  const rows = await db
    .selectFrom('files')
    .selectAll()
    .where('collection_id', '=', collectionId)
    .where('received_sha256', 'in', wanted)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const groups = new Map<string, FileRow[]>(wanted.map((digest) => [digest, []]));
  for (const row of rows) if (row.received_sha256) groups.get(row.received_sha256)?.push(row);
  return {
    groups: [...groups].map(([sha256, files]) => ({ sha256, files })),
    more,
  };
}
