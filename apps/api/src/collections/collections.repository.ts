import { sql, type Insertable } from 'kysely';
import type { CollectionMode } from '@raccolta/contracts';
import type { Db, DbKind } from '../db/create-db.js';
import type { CollectionsTable } from '../db/database.js';
import type { CollectionRow } from '../db/rows.js';

/** Every query here is scoped by team or collection id; the paged lists are in collection-lists.ts. */

/** Whether the user has a membership row in the team, whatever its status. */
export async function isTeamMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these users are active members of the team. */
export async function activeMemberIds(
  db: Db,
  teamId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('user_id', 'in', [...userIds])
    .where('status', '=', 'active')
    .execute();
  return new Set(rows.map((r) => r.user_id));
}

/** Tags (in the order they were set) and the user's read marks of several collections, in two queries. */
export async function collectionExtras(
  db: Db,
  collectionIds: readonly string[],
  userId: string,
): Promise<{ tags: Map<string, string[]>; readAt: Map<string, number> }> {
  const tags = new Map<string, string[]>();
  const readAt = new Map<string, number>();
  if (collectionIds.length === 0) return { tags, readAt };
  const ids = [...collectionIds];
  const [tagRows, readRows] = await Promise.all([
    db
      .selectFrom('collection_tags')
      .select(['collection_id', 'user_id'])
      .where('collection_id', 'in', ids)
      .orderBy('collection_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('collection_reads')
      .select(['collection_id', 'read_at'])
      .where('collection_id', 'in', ids)
      .where('user_id', '=', userId)
      .execute(),
  ]);
  for (const r of tagRows)
    tags.set(r.collection_id, [...(tags.get(r.collection_id) ?? []), r.user_id]);
  for (const r of readRows) readAt.set(r.collection_id, r.read_at);
  return { tags, readAt };
}

/** The tagged user ids of one collection, in the order lists show them. */
export async function tagsOf(db: Db, collectionId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('collection_tags')
    .select('user_id')
    .where('collection_id', '=', collectionId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * Reads and locks a collection row for the rest of the transaction (PostgreSQL), so two changes
 * of one collection take turns and each plans from the other's finished result. SQLite's
 * transactions already run one at a time.
 */
export function lockCollection(
  trx: Db,
  kind: DbKind,
  teamId: string,
  collectionId: string,
): Promise<CollectionRow | undefined> {
  const query = trx
    .selectFrom('collections')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('id', '=', collectionId);
  return (kind === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * Queues for deletion (`storage_deletions`) the objects of a deleted collection that the trash
 * does not keep: what its uploads in progress keep in storage (S3, an encrypted copy being
 * published included) and its downloads' archives. Its files' originals and renditions stay with
 * them in the trash (`trash/`). One statement, so the transaction that deletes the rows stays
 * short.
 */
export async function queueCollectionObjects(
  trx: Db,
  collectionId: string,
  now: number,
): Promise<void> {
  await sql`
    insert into storage_deletions (key, queued_at)
    select distinct k.key, cast(${now} as bigint) from (
      select 'uploads/' || u.id as key from uploads u where u.collection_id = ${collectionId}
      union all select 'uploads/' || u.id || '.enc' from uploads u where u.collection_id = ${collectionId}
      union all select 'uploads/' || u.id || '.info' from uploads u where u.collection_id = ${collectionId}
      union all select 'uploads/' || u.id || '.part' from uploads u where u.collection_id = ${collectionId}
      union all select p.storage_key from download_parts p
        join downloads d on d.id = p.download_id where d.collection_id = ${collectionId}
    ) k
    where k.key is not null
    on conflict (key) do nothing
  `.execute(trx);
}

/** The uploads of a collection, in progress or completed. */
export async function collectionUploadIds(trx: Db, collectionId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('uploads')
    .select('id')
    .where('collection_id', '=', collectionId)
    .execute();
  return rows.map((row) => row.id);
}

/** Deletes a collection; its files, tags, read marks, uploads and downloads go with it (cascade). */
export async function deleteCollectionRow(
  trx: Db,
  teamId: string,
  collectionId: string,
): Promise<boolean> {
  const result = await trx
    .deleteFrom('collections')
    .where('team_id', '=', teamId)
    .where('id', '=', collectionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertCollection(db: Db, row: Insertable<CollectionsTable>): Promise<void> {
  await db.insertInto('collections').values(row).execute();
}

/** Opening a collection marks it read by the user, now (one row per user and collection). */
export async function markCollectionRead(
  db: Db,
  collectionId: string,
  userId: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('collection_reads')
    .values({ collection_id: collectionId, user_id: userId, read_at: now })
    .onConflict((oc) => oc.columns(['collection_id', 'user_id']).doUpdateSet({ read_at: now }))
    .execute();
}

export interface CollectionChanges {
  name?: string;
  description?: string | null;
  /** The complete new list of tagged user ids. */
  tags?: string[];
  mode?: CollectionMode;
  deadline?: { at: number; timeZone: string } | null;
  allowLateUploads?: boolean;
}

/**
 * Writes a change and moves updated_at. The tag rows carry the collection's updated_at (the
 * tagged list is paged on that copy), so they move with it in the same transaction.
 */
export async function updateCollection(
  trx: Db,
  collection: CollectionRow,
  changes: CollectionChanges,
  by: { userId: string; now: number },
): Promise<void> {
  const { now } = by;
  await trx
    .updateTable('collections')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.mode !== undefined ? { mode: changes.mode } : {}),
      ...deadlineColumns(changes),
      updated_at: now,
      updated_by: by.userId,
    })
    .where('team_id', '=', collection.team_id)
    .where('id', '=', collection.id)
    .execute();
  if (changes.tags !== undefined) {
    await trx.deleteFrom('collection_tags').where('collection_id', '=', collection.id).execute();
    if (changes.tags.length > 0) {
      await trx
        .insertInto('collection_tags')
        .values(
          changes.tags.map((userId, position) => ({
            collection_id: collection.id,
            user_id: userId,
            team_id: collection.team_id,
            updated_at: now,
            position,
          })),
        )
        .execute();
    }
  } else {
    await trx
      .updateTable('collection_tags')
      .set({ updated_at: now })
      .where('collection_id', '=', collection.id)
      .execute();
  }
}

/** The deadline columns a change sets (none when it does not touch them). */
export function deadlineColumns(
  changes: Pick<CollectionChanges, 'deadline' | 'allowLateUploads'>,
): Partial<Pick<CollectionRow, 'deadline_at' | 'deadline_zone' | 'allow_late_uploads'>> {
  return {
    ...(changes.deadline !== undefined
      ? {
          deadline_at: changes.deadline?.at ?? null,
          deadline_zone: changes.deadline?.timeZone ?? null,
        }
      : {}),
    ...(changes.allowLateUploads !== undefined
      ? { allow_late_uploads: changes.allowLateUploads ? 1 : 0 }
      : {}),
  };
}
