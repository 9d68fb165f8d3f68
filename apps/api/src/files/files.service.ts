import {
  DUPLICATE_GROUPS_MAX,
  type DuplicatesResponse,
  type FileDownloadResponse,
  type FileItem,
  type FileListResponse,
  type FileLookupResponse,
} from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import { authorize, requireAccess, type CollectionAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import type { Db } from '../db/create-db.js';
import { isUuid } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { findUserById, type UserRow } from '../users/users.repository.js';
import { trashFile } from '../trash/trash.service.js';
import { memberRefsByTeam } from '../members/member-refs.js';
import { presentFile } from './files.presenter.js';
import { renditionUrl } from './rendition-links.js';
import type { RenditionGrant } from './rendition-links.js';
import { offeredFileName } from './offered-name.js';
import {
  deleteFileRow,
  fileReadTimes,
  findFile,
  findFileById,
  findFilesByReceivedHash,
  listDuplicateFiles,
  listCollectionFiles,
  listFilesOfUser,
  listTeamFiles,
  markFileRead,
  moveCollection,
  type FileListFilters,
  type FileRow,
} from './files.repository.js';

export type FileListQuery = FileListFilters;

/**
 * Files as one user sees them: uploaders' names (one query), the user's read marks (one query)
 * and rendition links signed for this user, so a link shared with someone else is still checked
 * against the user it was made for.
 */
export async function presentFilesFor(
  ctx: AppContext,
  viewerId: string,
  rows: FileRow[],
): Promise<FileItem[]> {
  const [uploaderOf, readTimes] = await Promise.all([
    memberRefsByTeam(
      ctx.db,
      rows.map((r) => ({ teamId: r.team_id, userId: r.uploaded_by })),
    ),
    fileReadTimes(
      ctx.db,
      viewerId,
      rows.map((r) => r.id),
    ),
  ]);
  const settings = {
    apiPublicUrl: ctx.config.apiPublicUrl,
    secret: ctx.config.secret,
    ttlSeconds: ctx.config.files.renditionUrlTtlSeconds,
  };
  const now = ctx.clock();
  return rows.map((row) => {
    const ready = row.rendition_status === 'ready';
    const link = (kind: 'thumbnail' | 'preview') =>
      ready ? renditionUrl(settings, { fileId: row.id, userId: viewerId, kind }, now) : null;
    return presentFile(row, {
      uploader: uploaderOf(row.team_id, row.uploaded_by),
      readAt: readTimes.get(row.id) ?? null,
      thumbnailUrl: link('thumbnail'),
      previewUrl: link('preview'),
    });
  });
}

async function presentPage(
  ctx: AppContext,
  actor: UserRow,
  page: { items: FileRow[]; lastKey: string | null },
): Promise<FileListResponse> {
  return {
    files: await presentFilesFor(ctx, actor.id, page.items),
    pagination: { lastKey: page.lastKey },
  };
}

async function presentOne(ctx: AppContext, actor: UserRow, row: FileRow): Promise<FileItem> {
  const [file] = await presentFilesFor(ctx, actor.id, [row]);
  if (!file) throw new Error('a presented row went missing');
  return file;
}

/** The collection as the caller sees it (404 otherwise), with the right to read its files. */
function readableCollection(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  db: Db = ctx.db,
): Promise<CollectionAccess> {
  return requireAccess(ctx, actor, { team: teamRef, collection: collectionId }, can.readFiles, {
    db,
  });
}

/** A file of a collection the caller sees; a file of another collection or team is 404. */
async function getFileRow(db: Db, access: CollectionAccess, fileId: string): Promise<FileRow> {
  const row = isUuid(fileId)
    ? await findFile(db, { teamId: access.team.id, collectionId: access.collection.id }, fileId)
    : undefined;
  if (!row) throw new AppError('notFound');
  return row;
}

export async function listFilesOfCollection(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  query: FileListQuery,
): Promise<FileListResponse> {
  const access = await readableCollection(ctx, actor, teamRef, collectionId);
  return presentPage(
    ctx,
    actor,
    await listCollectionFiles(ctx.db, ctx.config.database.kind, access.collection.id, query),
  );
}

/**
 * A member's uploads into a collection: the collection list with `creator` = the member. A
 * `creator` in the query as well narrows further (to nothing when it names someone else).
 */
export async function listMemberFilesOfCollection(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  memberId: string,
  collectionId: string,
  query: FileListQuery,
): Promise<FileListResponse> {
  const access = await readableCollection(ctx, actor, teamRef, collectionId);
  if (query.creator !== undefined && query.creator !== memberId) {
    return { files: [], pagination: { lastKey: null } };
  }
  const page = await listCollectionFiles(ctx.db, ctx.config.database.kind, access.collection.id, {
    ...query,
    creator: memberId,
  });
  return presentPage(ctx, actor, page);
}

export async function listFilesOfTeam(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  query: FileListQuery,
): Promise<FileListResponse> {
  const access = await requireAccess(ctx, actor, { team: teamRef }, can.readFiles);
  const page = await listTeamFiles(
    ctx.db,
    ctx.config.database.kind,
    access.team.id,
    { userId: actor.id, isUploader: access.role === 'uploader' },
    query,
  );
  return presentPage(ctx, actor, page);
}

/** Every team the caller is an active member of; every role may read files (spec §6). */
export async function listFilesOfAllTeams(
  ctx: AppContext,
  actor: UserRow,
  query: FileListQuery,
): Promise<FileListResponse> {
  return presentPage(
    ctx,
    actor,
    await listFilesOfUser(ctx.db, ctx.config.database.kind, actor.id, query),
  );
}

/**
 * Which of these digests of files about to be uploaded the collection already holds (the
 * oldest file with each): asked by those who may upload into it, before they do.
 */
export async function lookupFiles(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  digests: readonly string[],
): Promise<FileLookupResponse> {
  const access = await requireAccess(
    ctx,
    actor,
    { team: teamRef, collection: collectionId },
    can.lookupFiles,
  );
  const rows = await findFilesByReceivedHash(ctx.db, access.collection.id, digests);
  return {
    found: rows.map((row) => ({
      sha256: row.received_sha256 ?? row.sha256,
      fileId: row.id,
      name: row.name,
      createdAt: new Date(row.created_at).toISOString(),
    })),
  };
}

/** The collection's files that hold the same uploaded bytes as another of its files. */
export async function listDuplicatesOfCollection(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
): Promise<DuplicatesResponse> {
  const access = await readableCollection(ctx, actor, teamRef, collectionId);
  const { groups, more } = await listDuplicateFiles(
    ctx.db,
    access.collection.id,
    DUPLICATE_GROUPS_MAX,
  );
  const presented = await presentFilesFor(
    ctx,
    actor.id,
    groups.flatMap((g) => g.files),
  );
  const byId = new Map(presented.map((file) => [file.fileId, file]));
  return {
    groups: groups.map((g) => ({
      sha256: g.sha256,
      files: g.files.flatMap((row) => byId.get(row.id) ?? []),
    })),
    more,
  };
}

/** GET of one file opens its preview: the file and its collection count as read. */
export async function getFile(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  fileId: string,
): Promise<FileItem> {
  const access = await readableCollection(ctx, actor, teamRef, collectionId);
  const row = await getFileRow(ctx.db, access, fileId);
  await markFileRead(ctx.db, row, actor.id, ctx.clock());
  return presentOne(ctx, actor, row);
}

/**
 * A short-lived link that downloads the original as an attachment under its offered name (its
 * safe name with an extension of its sniffed type: offered-name.ts), with the
 * sniffed type; served by /storage/* with nosniff and a sandboxing CSP. Counts as reading it.
 * `inline` for a PDF: shown by the browser's own viewer in the preview's frame (docs/decisions.md).
 */
export async function createFileDownload(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  fileId: string,
  opts: { inline?: boolean } = {},
): Promise<FileDownloadResponse> {
  const access = await readableCollection(ctx, actor, teamRef, collectionId);
  const row = await getFileRow(ctx.db, access, fileId);
  authorize(can.downloadFile(access));
  const url = await ctx.storage.signedUrl(row.storage_key, {
    expiresInSeconds: ctx.config.signedUrlTtlSeconds,
    fileName: offeredFileName(row.name, row.content_type),
    contentType: row.content_type,
    disposition: opts.inline === true && isPdf(row.content_type) ? 'inline' : 'attachment',
  });
  await markFileRead(ctx.db, row, actor.id, ctx.clock());
  return { url };
}

/**
 * Deletes a file into the team's trash: the row leaves `files` (its read marks cascade) for a row
 * in `trash`, the collection's count and dates move, and the stored objects stay until the trash
 * is purged (TRASH_DAYS) or emptied.
 */
export async function deleteFile(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  fileId: string,
): Promise<void> {
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const access = await readableCollection(ctx, actor, teamRef, collectionId, trx);
    const scope = { teamId: access.team.id, collectionId: access.collection.id };
    await getFileRow(trx, access, fileId);
    authorize(can.deleteFile(access));
    const row = await deleteFileRow(trx, scope, fileId);
    // Deleted by someone else since the read above.
    if (!row) throw new AppError('notFound');
    await moveCollection(trx, scope, { delta: -1, now, actorId: actor.id });
    await trashFile(trx, {
      file: row,
      collectionName: access.collection.name,
      actorId: actor.id,
      now,
    });
  });
}

/**
 * The stored key of a rendition a link grants, checked exactly as the file itself would be for
 * the user the link was issued to: still an active member of the file's team, still seeing its
 * collection. Anything else is 404, like a file of another team.
 */
export async function requireGrantedRendition(
  ctx: AppContext,
  grant: RenditionGrant,
): Promise<string> {
  const [user, row] = await Promise.all([
    findUserById(ctx.db, grant.userId),
    findFileById(ctx.db, grant.fileId),
  ]);
  if (!user || !row) throw new AppError('notFound');
  await requireAccess(
    ctx,
    user,
    { team: row.team_id, collection: row.collection_id },
    can.readFiles,
    { refusal: 'notFound' },
  );
  const key = grant.kind === 'thumbnail' ? row.thumbnail_key : row.preview_key;
  if (row.rendition_status !== 'ready' || key === null) throw new AppError('notFound');
  return key;
}

function isPdf(contentType: string): boolean {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase() === 'application/pdf';
}
