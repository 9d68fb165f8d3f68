import {
  canChangeCollectionMode,
  canChooseCollaborative,
  localDeadline,
  type Collection,
  type CollectionListResponse,
  type CollectionPatch,
  type CollectionView,
  type CreateCollectionRequest,
} from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import { trashCollection } from '../trash/trash.service.js';
import type { Db } from '../db/create-db.js';
import { newId } from '../db/ids.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { deleteQueuedObjectsJob } from '../storage/delete-queued.job.js';
import type { Page } from '../db/pagination.js';
import { AppError } from '../errors/app-error.js';
import { memberRefsByTeam } from '../members/member-refs.js';
import { authorize, requireAccess, type TeamAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import type { CollectionRow } from '../db/rows.js';
import { uploadBackendFor } from '../uploads/backend-cache.js';
import type { UserRow } from '../users/users.repository.js';
import { deadlineAt, planCollectionPatch } from './collection-patch.js';
import { presentCollection } from './collections.presenter.js';
import {
  listCollectionsOfUser,
  listTeamCollections,
  type CollectionListOptions,
  type CollectionViewer,
  type TeamCollectionFilters,
} from './collection-lists.js';
import {
  activeMemberIds,
  collectionExtras,
  collectionUploadIds,
  deadlineColumns,
  deleteCollectionRow,
  insertCollection,
  isTeamMember,
  lockCollection,
  markCollectionRead,
  queueCollectionObjects,
  tagsOf,
  updateCollection,
} from './collections.repository.js';

export type CollectionScopedQuery = CollectionListOptions & { tagged?: string | undefined };
export type CollectionTeamQuery = CollectionScopedQuery & {
  member?: string | undefined;
  view: CollectionView;
};

/** Collections as the caller sees them: tags, names and read marks in a few queries per page. */
async function presentCollections(
  db: Db,
  rows: readonly CollectionRow[],
  userId: string,
): Promise<Collection[]> {
  const { tags, readAt } = await collectionExtras(
    db,
    rows.map((r) => r.id),
    userId,
  );
  const member = await memberRefsByTeam(
    db,
    rows.flatMap((r) =>
      [r.created_by, ...(tags.get(r.id) ?? [])].map((id) => ({ teamId: r.team_id, userId: id })),
    ),
  );
  return rows.map((r) =>
    presentCollection(r, {
      tags: tags.get(r.id) ?? [],
      readAt: readAt.get(r.id) ?? null,
      member,
    }),
  );
}

async function presentOne(db: Db, row: CollectionRow, userId: string): Promise<Collection> {
  const [presented] = await presentCollections(db, [row], userId);
  if (!presented) throw new AppError('notFound');
  return presented;
}

async function presentPage(
  db: Db,
  page: Page<CollectionRow>,
  userId: string,
): Promise<CollectionListResponse> {
  return {
    collections: await presentCollections(db, page.items, userId),
    pagination: { lastKey: page.lastKey },
  };
}

function viewerOf(access: TeamAccess): CollectionViewer {
  return { userId: access.actor.id, role: access.role };
}

async function listInTeam(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  filters: TeamCollectionFilters,
  check: (access: TeamAccess) => Promise<void> = () => Promise.resolve(),
): Promise<CollectionListResponse> {
  const access = await requireAccess(ctx, user, { team: teamRef }, can.listCollections);
  await check(access);
  const page = await listTeamCollections(ctx.db, access.team.id, viewerOf(access), filters);
  return presentPage(ctx.db, page, user.id);
}

/** GET /teams/{teamId}/collections: every filter combines; an uploader sees its own and shared ones. */
export function listCollections(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  query: CollectionTeamQuery,
): Promise<CollectionListResponse> {
  const { view, ...filters } = query;
  return listInTeam(ctx, user, teamRef, { ...filters, collaborative: view === 'collaborative' });
}

/** GET /teams/{teamId}/members/{memberId}/collections: created by a member (of any status). */
export function listMemberCollections(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  memberId: string,
  query: CollectionScopedQuery,
): Promise<CollectionListResponse> {
  return listInTeam(ctx, user, teamRef, { ...query, member: memberId }, async (access) => {
    if (!(await isTeamMember(ctx.db, access.team.id, memberId))) throw new AppError('notFound');
  });
}

/** GET /teams/{teamId}/shared-collections: the collaborative ones. */
export function listSharedCollections(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  query: CollectionScopedQuery,
): Promise<CollectionListResponse> {
  return listInTeam(ctx, user, teamRef, { ...query, collaborative: true });
}

/** GET /collections: across every team the caller is an active member of. */
export async function listAllCollections(
  ctx: AppContext,
  user: UserRow,
  query: CollectionScopedQuery,
): Promise<CollectionListResponse> {
  const page = await listCollectionsOfUser(ctx.db, user.id, query);
  return presentPage(ctx.db, page, user.id);
}

/** One collection; opening it marks it read for the caller, now. */
export async function getCollection(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<Collection> {
  const { collection } = await requireAccess(
    ctx,
    user,
    { team: teamRef, collection: collectionId },
    can.readCollection,
  );
  await markCollectionRead(ctx.db, collection.id, user.id, ctx.clock());
  return presentOne(ctx.db, collection, user.id);
}

/**
 * A new draft collection, created and last updated by the caller. An uploader creates only in a
 * collaborative team and only owned collections (spec §6 special rules).
 */
export async function createCollection(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  input: CreateCollectionRequest,
): Promise<Collection> {
  const access = await requireAccess(ctx, user, { team: teamRef }, can.createCollection);
  if (input.mode === 'collaborative') authorize(canChooseCollaborative(access.role));
  const now = ctx.clock();
  const deadline = input.deadline ? deadlineAt(input.deadline) : null;
  const row: CollectionRow = {
    id: newId(),
    team_id: access.team.id,
    name: input.name,
    description: input.description ?? null,
    mode: input.mode,
    status: 'draft',
    files_count: 0,
    created_at: now,
    created_by: user.id,
    updated_at: now,
    updated_by: user.id,
    deadline_at: deadline?.at ?? null,
    deadline_zone: deadline?.timeZone ?? null,
    allow_late_uploads: input.allowLateUploads === true ? 1 : 0,
  };
  await insertCollection(ctx.db, row);
  return presentOne(ctx.db, row, user.id);
}

/**
 * Applies a collection PATCH in one transaction, all or none. The row is locked and read again
 * inside it, so `test` operations compare with the value a concurrent change just committed.
 * Tags must be active members of the team (invalidTeamMember), checked before anything is written.
 */
export async function patchCollection(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  collectionId: string,
  ops: CollectionPatch,
): Promise<Collection> {
  const now = ctx.clock();
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const access = await requireAccess(
      ctx,
      user,
      { team: teamRef, collection: collectionId },
      can.readCollection,
      { db: trx },
    );
    const current = await lockCollection(
      trx,
      ctx.config.database.kind,
      access.team.id,
      collectionId,
    );
    if (!current) throw new AppError('notFound');
    // The rule on the row as it is now, locked: not on what was read before the lock.
    authorize(can.updateCollection({ ...access, collection: current }));
    const { changes, taggedIds, setsMode } = planCollectionPatch(
      {
        name: current.name,
        description: current.description,
        tags: await tagsOf(trx, current.id),
        mode: current.mode,
        deadline:
          current.deadline_at === null || current.deadline_zone === null
            ? null
            : {
                local: localDeadline(current.deadline_at, current.deadline_zone),
                timeZone: current.deadline_zone,
              },
        allowLateUploads: current.allow_late_uploads === 1,
      },
      ops,
    );
    // Shared or private is the managers' choice, as when creating (§6): refused to an uploader
    // even on the collections it may rename.
    if (setsMode) authorize(canChangeCollectionMode(access.role));
    const active = await activeMemberIds(trx, access.team.id, taggedIds);
    const stranger = taggedIds.find((id) => !active.has(id));
    if (stranger !== undefined) {
      throw new AppError('invalidTeamMember', {
        message: `${stranger} is not an active member of the team`,
      });
    }
    if (Object.keys(changes).length === 0) return current;
    await updateCollection(trx, current, changes, { userId: user.id, now });
    return {
      ...current,
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.mode !== undefined ? { mode: changes.mode } : {}),
      ...deadlineColumns(changes),
      updated_at: now,
      updated_by: user.id,
    };
  });
  return presentOne(ctx.db, updated, user.id);
}

/**
 * DELETE /teams/{teamId}/collections/{collectionId} (owner, admin; spec §6): the collection and
 * its files into the team's trash (their objects stay until it is purged), in one transaction
 * that also queues what is not kept, its uploads in progress and prepared archives, for
 * `storage.delete-queued`, so those bytes go only once the rows surely have, and a crash in
 * between only delays it. On PostgreSQL the collection row is locked first: a file being committed into it
 * meanwhile waits, then finds it gone.
 */
export async function deleteCollection(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<void> {
  const now = ctx.clock();
  const uploads = await ctx.db.transaction().execute(async (trx) => {
    const access = await requireAccess(
      ctx,
      user,
      { team: teamRef, collection: collectionId },
      can.deleteCollection,
      { db: trx },
    );
    const current = await lockCollection(
      trx,
      ctx.config.database.kind,
      access.team.id,
      collectionId,
    );
    if (!current) throw new AppError('notFound');
    const ids = await collectionUploadIds(trx, current.id);
    await trashCollection(trx, { collection: current, actorId: user.id, now });
    await queueCollectionObjects(trx, current.id, now);
    if (!(await deleteCollectionRow(trx, access.team.id, current.id))) {
      throw new AppError('notFound');
    }
    await enqueueJob(trx, deleteQueuedObjectsJob, { payload: {} }, ctx.clock);
    return ids;
  });
  // What the tus store keeps of its uploads in progress: files under DATA_DIR/uploads, S3's
  // multipart uploads. Their rows are gone, so nothing else would remove them before they expire
  // (the expiry job's sweep of unknown leftovers is what remains if this process stops here).
  const backend = uploadBackendFor(ctx.config, ctx.storage);
  for (const id of uploads) {
    await backend.discard(id).catch((err: unknown) => {
      ctx.logger.warn({ err, uploadId: id }, 'discarding an upload of a deleted collection failed');
    });
  }
}
