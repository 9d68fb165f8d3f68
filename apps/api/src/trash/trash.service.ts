import {
  type PageQuery,
  type TrashListResponse,
  type TrashPurgeResponse,
  type TrashRestoreResponse,
} from '@raccolta/contracts';
import type { CollectionRow } from '../db/rows.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import type { FileRow } from '../files/files.repository.js';
import { moveCollection } from '../files/files.repository.js';
import { renderFileJob } from '../files/renditions.job.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { memberRefs } from '../members/member-refs.js';
import { deleteQueuedObjectsJob } from '../storage/delete-queued.job.js';
import { requireAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import type { UserRow } from '../users/users.repository.js';
import { presentTrash } from './trash.presenter.js';
import {
  deleteTrash,
  expiredTrash,
  filesOfTrashedCollection,
  findTrash,
  insertTrash,
  listTrash,
  objectKeysOf,
  queueObjectDeletions,
  trashTotals,
  type CollectionData,
  type FileData,
  type TrashRow,
} from './trash.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Moves a file into the trash, in the transaction that deletes its row: the row as it was, and
 * nothing queued for deletion, so its bytes stay until it is purged.
 */
export async function trashFile(
  trx: Db,
  input: { file: FileRow; collectionName: string; actorId: string; now: number },
): Promise<void> {
  const { file } = input;
  await insertTrash(trx, [
    {
      id: file.id,
      team_id: file.team_id,
      kind: 'file',
      parent_id: null,
      collection_id: file.collection_id,
      name: file.name,
      collection_name: input.collectionName,
      size: file.size,
      file_count: 1,
      content_type: file.content_type,
      deleted_by: input.actorId,
      deleted_at: input.now,
      data: JSON.stringify(file),
    },
  ]);
}

/**
 * Moves a collection and its files into the trash, before its row is deleted (its files, tags
 * and read marks go with it by cascade). The files' rows are kept beside the collection's.
 */
export async function trashCollection(
  trx: Db,
  input: { collection: CollectionRow; actorId: string; now: number },
): Promise<void> {
  const { collection } = input;
  const files = await trx
    .selectFrom('files')
    .selectAll()
    .where('collection_id', '=', collection.id)
    .execute();
  const tags = await trx
    .selectFrom('collection_tags')
    .select('user_id')
    .where('collection_id', '=', collection.id)
    .orderBy('position')
    .execute();
  const data: CollectionData = { ...collection, tags: tags.map((tag) => tag.user_id) };
  const common = {
    team_id: collection.team_id,
    collection_id: collection.id,
    collection_name: collection.name,
    deleted_by: input.actorId,
    deleted_at: input.now,
  };
  await insertTrash(trx, [
    {
      ...common,
      id: collection.id,
      kind: 'collection',
      parent_id: null,
      name: collection.name,
      size: files.reduce((sum, file) => sum + file.size, 0),
      file_count: files.length,
      content_type: null,
      data: JSON.stringify(data),
    },
    ...files.map((file) => ({
      ...common,
      id: file.id,
      kind: 'file' as const,
      parent_id: collection.id,
      name: file.name,
      size: file.size,
      file_count: 1,
      content_type: file.content_type,
      data: JSON.stringify(file),
    })),
  ]);
}

async function managedTeam(ctx: AppContext, actor: UserRow, teamRef: string, db: Db = ctx.db) {
  const access = await requireAccess(ctx, actor, { team: teamRef }, can.manageTrash, { db });
  return access.team;
}

/** GET /teams/{teamId}/trash (owner, admin): newest first. */
export async function listTeamTrash(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  query: PageQuery,
): Promise<TrashListResponse> {
  const team = await managedTeam(ctx, actor, teamRef);
  const [page, totals] = await Promise.all([
    listTrash(ctx.db, team.id, { limit: query.limit, lastKey: query.lastKey }),
    trashTotals(ctx.db, team.id),
  ]);
  const deleters = await memberRefs(
    ctx.db,
    team.id,
    page.items.map((row) => row.deleted_by),
  );
  return {
    items: presentTrash(page.items, deleters, ctx.config.trashDays),
    totals,
    trashDays: ctx.config.trashDays,
    pagination: { lastKey: page.lastKey },
  };
}

/**
 * POST /teams/{teamId}/trash/restore (owner, admin): each item back where it was, in one
 * transaction. A collection comes back with the files deleted with it; a file whose collection is
 * in the trash too brings the collection back. An id that is not in the team's trash (or was
 * restored meanwhile) refuses the whole request with notFound, and nothing changes.
 */
export async function restoreFromTrash(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  itemIds: string[],
): Promise<TrashRestoreResponse> {
  const now = ctx.clock();
  return ctx.db.transaction().execute(async (trx) => {
    const team = await managedTeam(ctx, actor, teamRef, trx);
    const ids = [...new Set(itemIds)];
    const items = await findTrash(trx, team.id, ids);
    if (items.length !== ids.length) throw new AppError('notFound');

    // The collections to bring back: asked for, holding a file asked for, or the trashed home of
    // a file asked for.
    const collectionIds = new Set<string>();
    const singleFiles: TrashRow[] = [];
    for (const item of items) {
      if (item.kind === 'collection') collectionIds.add(item.id);
      else if (item.parent_id) collectionIds.add(item.parent_id);
      else singleFiles.push(item);
    }
    for (const file of singleFiles) {
      const live = await trx
        .selectFrom('collections')
        .select('id')
        .where('id', '=', file.collection_id)
        .executeTakeFirst();
      if (!live) collectionIds.add(file.collection_id);
    }

    const restored = { files: 0, collections: 0 };
    const pending: string[] = [];
    // A restored collection keeps the tags of those still active in the team.
    const members = new Set(
      collectionIds.size === 0
        ? []
        : (
            await trx
              .selectFrom('team_members')
              .select('user_id')
              .where('team_id', '=', team.id)
              .where('status', '=', 'active')
              .execute()
          ).map((m) => m.user_id),
    );
    for (const collectionId of [...collectionIds].sort()) {
      const [row] = await findTrash(trx, team.id, [collectionId]);
      if (row?.kind !== 'collection') throw new AppError('notFound');
      const children = (await filesOfTrashedCollection(trx, team.id, collectionId)).filter(
        (child) => child.parent_id === collectionId,
      );
      if ((await deleteTrash(trx, [row.id, ...children.map((c) => c.id)])) !== children.length + 1)
        throw new AppError('notFound');
      const { tags, ...collection } = JSON.parse(row.data) as CollectionData;
      await trx
        .insertInto('collections')
        .values({ ...collection, files_count: 0, status: 'draft' })
        .execute();
      const kept = tags.filter((userId) => members.has(userId));
      if (kept.length > 0)
        await trx
          .insertInto('collection_tags')
          .values(
            kept.map((userId, position) => ({
              collection_id: collectionId,
              user_id: userId,
              team_id: team.id,
              updated_at: collection.updated_at,
              position,
            })),
          )
          .execute();
      const files = children.map((child) => JSON.parse(child.data) as FileData);
      for (let i = 0; i < files.length; i += 200)
        await trx
          .insertInto('files')
          .values(files.slice(i, i + 200))
          .execute();
      await trx
        .updateTable('collections')
        .set({
          files_count: files.length,
          status: files.length > 0 ? 'ready' : 'draft',
        })
        .where('id', '=', collectionId)
        .execute();
      pending.push(...files.filter((f) => f.rendition_status === 'pending').map((f) => f.id));
      restored.collections++;
      restored.files += files.length;
    }

    for (const item of singleFiles) {
      if ((await deleteTrash(trx, [item.id])) !== 1) throw new AppError('notFound');
      const file = JSON.parse(item.data) as FileData;
      // The collection's row first, as an upload's commit takes it.
      const scope = { teamId: team.id, collectionId: file.collection_id };
      if (!(await moveCollection(trx, scope, { delta: 1, now, actorId: actor.id })))
        throw new AppError('notFound');
      await trx.insertInto('files').values(file).execute();
      if (file.rendition_status === 'pending') pending.push(file.id);
      restored.files++;
    }

    // A rendition job that ran while the file was in the trash found no row and stopped.
    for (const fileId of pending)
      await enqueueJob(trx, renderFileJob, { payload: { fileId } }, ctx.clock);
    return restored;
  });
}

/**
 * Deletes items for good: their trash rows, and their objects queued for
 * `storage.delete-queued`. A collection takes with it the files deleted with it and those deleted
 * from it before (they would have nowhere to go back to).
 */
async function purgeItems(
  ctx: Pick<AppContext, 'clock'>,
  trx: Db,
  teamId: string,
  items: TrashRow[],
): Promise<TrashPurgeResponse> {
  const now = ctx.clock();
  const rows = new Map<string, TrashRow>();
  for (const item of items) {
    rows.set(item.id, item);
    if (item.kind === 'collection')
      for (const child of await filesOfTrashedCollection(trx, teamId, item.id))
        rows.set(child.id, child);
  }
  // Deleting the rows is what claims them: a restore that took one meanwhile (its own delete
  // came first) leaves fewer, and then nothing here may go on to queue the objects it brought
  // back. The whole transaction is refused instead.
  if ((await deleteTrash(trx, [...rows.keys()])) !== rows.size) throw new AppError('notFound');
  const keys: string[] = [];
  let files = 0;
  let bytes = 0;
  for (const row of rows.values()) {
    if (row.kind !== 'file') continue;
    files++;
    bytes += row.size;
    keys.push(...objectKeysOf(JSON.parse(row.data) as FileData));
  }
  if (keys.length > 0) {
    await queueObjectDeletions(trx, keys, now);
    await enqueueJob(trx, deleteQueuedObjectsJob, { payload: {} }, ctx.clock);
  }
  return { files, bytes };
}

/** POST /teams/{teamId}/trash/purge (owner, admin): the items named, for good. */
export async function purgeFromTrash(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  itemIds: string[],
): Promise<TrashPurgeResponse> {
  return ctx.db.transaction().execute(async (trx) => {
    const team = await managedTeam(ctx, actor, teamRef, trx);
    const ids = [...new Set(itemIds)];
    const items = await findTrash(trx, team.id, ids);
    if (items.length !== ids.length) throw new AppError('notFound');
    return purgeItems(ctx, trx, team.id, items);
  });
}

/** DELETE /teams/{teamId}/trash (owner, admin): empties the trash. */
export async function emptyTrash(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
): Promise<TrashPurgeResponse> {
  return ctx.db.transaction().execute(async (trx) => {
    const team = await managedTeam(ctx, actor, teamRef, trx);
    const items = await trx
      .selectFrom('trash')
      .selectAll()
      .where('team_id', '=', team.id)
      .where('parent_id', 'is', null)
      .execute();
    return purgeItems(ctx, trx, team.id, items);
  });
}

/** The scheduled purge: items older than TRASH_DAYS, a batch per transaction. */
export async function purgeExpiredTrash(
  deps: Pick<AppContext, 'db' | 'clock'> & { trashDays: number },
): Promise<number> {
  const before = deps.clock() - deps.trashDays * DAY_MS;
  let purged = 0;
  const tried = new Set<string>();
  for (;;) {
    const batch = (await expiredTrash(deps.db, before, 100)).filter((row) => !tried.has(row.id));
    if (batch.length === 0) return purged;
    for (const row of batch) {
      tried.add(row.id);
      // One item a transaction, read again inside: a restore may have taken it meanwhile, and
      // then it is left to the restore (the next run looks again).
      try {
        await deps.db.transaction().execute(async (trx) => {
          const [current] = await findTrash(trx, row.team_id, [row.id]);
          if (!current) throw new AppError('notFound');
          await purgeItems(deps, trx, current.team_id, [current]);
        });
        purged++;
      } catch (error) {
        if (!(error instanceof AppError && error.errorCode === 'notFound')) throw error;
      }
    }
  }
}
