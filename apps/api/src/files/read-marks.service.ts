import { requireAccess, type CollectionAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import type { AppContext } from '../context.js';
import { isUuid } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import type { UserRow } from '../users/users.repository.js';
import {
  deleteCollectionRead,
  deleteFileRead,
  findFile,
  markCollectionFilesRead,
  upsertFileRead,
} from './files.repository.js';

/**
 * Read marks set and cleared by hand ("Mark as read", "Mark as unread", "Mark all as read").
 * They are the caller's own: any member who can see the file or collection may set them (spec §6
 * readFile), and they change nothing anyone else sees.
 */

function visibleCollection(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<CollectionAccess> {
  return requireAccess(ctx, actor, { team: teamRef, collection: collectionId }, can.readFiles);
}

async function visibleFileId(
  ctx: AppContext,
  actor: UserRow,
  ref: { teamRef: string; collectionId: string; fileId: string },
): Promise<string> {
  const access = await visibleCollection(ctx, actor, ref.teamRef, ref.collectionId);
  const scope = { teamId: access.team.id, collectionId: access.collection.id };
  const row = isUuid(ref.fileId) ? await findFile(ctx.db, scope, ref.fileId) : undefined;
  if (!row) throw new AppError('notFound');
  return row.id;
}

export interface FileRef {
  teamRef: string;
  collectionId: string;
  fileId: string;
}

export async function markFileRead(ctx: AppContext, actor: UserRow, ref: FileRef): Promise<void> {
  const fileId = await visibleFileId(ctx, actor, ref);
  await upsertFileRead(ctx.db, fileId, actor.id, ctx.clock());
}

export async function markFileUnread(ctx: AppContext, actor: UserRow, ref: FileRef): Promise<void> {
  const fileId = await visibleFileId(ctx, actor, ref);
  await deleteFileRead(ctx.db, fileId, actor.id);
}

/** The collection and every file in it read for the caller, in one transaction. */
export async function markCollectionRead(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<void> {
  const access = await visibleCollection(ctx, actor, teamRef, collectionId);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    await markCollectionFilesRead(trx, access.collection.id, actor.id, now);
  });
}

export async function markCollectionUnread(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<void> {
  const access = await visibleCollection(ctx, actor, teamRef, collectionId);
  await deleteCollectionRead(ctx.db, access.collection.id, actor.id);
}
