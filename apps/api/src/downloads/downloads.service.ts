import {
  archiveFileName,
  requestedLocalTime,
  canCreateDownload,
  hasPermission,
  type CreateDownloadRequest,
  type Download,
  type DownloadLinkResponse,
  type DownloadPart,
} from '@raccolta/contracts';
import { loadCollectionAccess } from '../collections/collection-access.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { isUuid, newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { authorize } from '../teams/team-access.js';
import type { UserRow } from '../users/users.repository.js';
import { buildDownloadJob } from './build-download.job.js';
import { buildJobKey } from './downloads.keys.js';
import { selectionQuery, type DownloadSelection } from './download-selection.js';
import {
  presentDownload,
  presentPart,
  type DownloadPartRow,
  type DownloadRow,
} from './downloads.presenter.js';

/** Downloads one member may have in progress at once; more is tooManyRequests. */
export const MAX_DOWNLOADS_IN_PROGRESS = 5;

function sameSelection(row: DownloadRow, prefix: string | null, fileIds: string | null): boolean {
  return row.prefix === prefix && row.file_ids === fileIds;
}

async function partsOf(db: Db, downloadId: string): Promise<DownloadPartRow[]> {
  return db
    .selectFrom('download_parts')
    .selectAll()
    .where('download_id', '=', downloadId)
    .orderBy('part_number')
    .execute();
}

/**
 * Requests a download of a collection (all of it, the files whose name starts with `prefix`, or
 * the files named). Asking again for the same selection while it is being prepared answers the
 * download in progress instead of building it twice.
 */
export async function createDownload(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  body: CreateDownloadRequest,
): Promise<Download> {
  const now = ctx.clock();
  const prefix = body.prefix ?? null;
  const fileIds = body.fileIds ? JSON.stringify([...new Set(body.fileIds)].sort()) : null;
  return ctx.db.transaction().execute(async (trx) => {
    const access = await loadCollectionAccess(ctx, actor, teamRef, body.collectionId, trx);
    authorize(canCreateDownload(access.role));
    const inProgress = await trx
      .selectFrom('downloads')
      .selectAll()
      .where('requested_by', '=', actor.id)
      .where('status', '=', 'inProgress')
      .execute();
    const same = inProgress.find(
      (row) => row.collection_id === access.collection.id && sameSelection(row, prefix, fileIds),
    );
    if (same) return presentDownload(same, await partsOf(trx, same.id));
    if (inProgress.length >= MAX_DOWNLOADS_IN_PROGRESS)
      throw new AppError('tooManyRequests', {
        message: `At most ${MAX_DOWNLOADS_IN_PROGRESS} downloads can be prepared at once`,
      });

    const selection: DownloadSelection = {
      teamId: access.team.id,
      collectionId: access.collection.id,
      prefix,
      fileIds: body.fileIds ?? null,
      createdUpTo: now,
    };
    const totals = await selectionQuery(trx, selection)
      .select((eb) => [
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string | null>('files.size').as('bytes'),
      ])
      .executeTakeFirstOrThrow();
    const fileCount = Number(totals.count);
    if (fileCount === 0) throw new AppError('nothingToDownload');

    const row: DownloadRow = {
      id: newId(),
      team_id: access.team.id,
      collection_id: access.collection.id,
      requested_by: actor.id,
      collection_name: access.collection.name,
      prefix,
      file_ids: fileIds,
      status: 'inProgress',
      total_parts: null,
      file_count: fileCount,
      total_bytes: Number(totals.bytes ?? 0),
      error: null,
      created_at: now,
      updated_at: now,
      ready_at: null,
      expires_at: null,
    };
    await trx.insertInto('downloads').values(row).execute();
    await enqueueJob(
      trx,
      buildDownloadJob,
      { payload: { downloadId: row.id }, dedupeKey: buildJobKey(row.id) },
      ctx.clock,
    );
    return presentDownload(row, []);
  });
}

/**
 * A download as its requester sees it. Access is checked in full every time: still an active
 * member allowed to read downloads, still seeing the collection. Anyone else's download, or one
 * of another team, is 404 like a foreign team.
 */
async function loadOwnDownload(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  downloadId: string,
): Promise<DownloadRow> {
  if (!isUuid(downloadId)) throw new AppError('notFound');
  const row = await ctx.db
    .selectFrom('downloads')
    .selectAll()
    .where('id', '=', downloadId)
    .executeTakeFirst();
  if (!row || row.requested_by !== actor.id) throw new AppError('notFound');
  const access = await loadCollectionAccess(ctx, actor, teamRef, row.collection_id);
  if (access.team.id !== row.team_id) throw new AppError('notFound');
  authorize(hasPermission(access.role, 'readDownload'));
  return row;
}

export async function getDownload(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  downloadId: string,
): Promise<Download> {
  const row = await loadOwnDownload(ctx, actor, teamRef, downloadId);
  return presentDownload(row, await partsOf(ctx.db, row.id));
}

async function findPart(db: Db, downloadId: string, partId: number): Promise<DownloadPartRow> {
  const part = await db
    .selectFrom('download_parts')
    .selectAll()
    .where('download_id', '=', downloadId)
    .where('part_number', '=', partId)
    .executeTakeFirst();
  if (!part) throw new AppError('notFound');
  return part;
}

function assertOffered(row: DownloadRow): void {
  if (row.status === 'expired') throw new AppError('downloadExpired');
  if (row.status === 'failed')
    throw new AppError('invalidDownload', { message: 'Preparing this download failed' });
}

export async function getDownloadPart(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  downloadId: string,
  partId: number,
): Promise<DownloadPart> {
  const row = await loadOwnDownload(ctx, actor, teamRef, downloadId);
  assertOffered(row);
  return presentPart(await findPart(ctx.db, row.id, partId));
}

async function linkTo(
  ctx: AppContext,
  row: DownloadRow,
  part: DownloadPartRow,
  actor: UserRow,
  localTime: string | undefined,
): Promise<DownloadLinkResponse> {
  if (part.storage_key === null) throw new AppError('downloadNotReady');
  const url = await ctx.storage.signedUrl(part.storage_key, {
    expiresInSeconds: ctx.config.signedUrlTtlSeconds,
    fileName: archiveFileName(row.collection_name, {
      // The request's moment, not the link's: every part of a download shares one name.
      localTime:
        localTime === undefined
          ? undefined
          : requestedLocalTime(row.created_at, localTime, ctx.clock()),
      part: part.part_number,
      totalParts: row.total_parts ?? 1,
      locale: actor.locale,
    }),
    contentType: 'application/zip',
    disposition: 'attachment',
  });
  return { url };
}

/** `…/download`: the link of a download made of one part. */
export async function createDownloadLink(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  downloadId: string,
  localTime: string | undefined,
): Promise<DownloadLinkResponse> {
  const row = await loadOwnDownload(ctx, actor, teamRef, downloadId);
  assertOffered(row);
  if (row.total_parts === null || row.status !== 'ready') throw new AppError('downloadNotReady');
  if (row.total_parts > 1)
    throw new AppError('invalidDownload', {
      message: `This download has ${row.total_parts} parts: ask for each part's link`,
    });
  return linkTo(ctx, row, await findPart(ctx.db, row.id, 1), actor, localTime);
}

/** `…/parts/{partId}/download`: a part's link, as soon as that part is stored. */
export async function createPartLink(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  downloadId: string,
  partId: number,
  localTime: string | undefined,
): Promise<DownloadLinkResponse> {
  const row = await loadOwnDownload(ctx, actor, teamRef, downloadId);
  assertOffered(row);
  return linkTo(ctx, row, await findPart(ctx.db, row.id, partId), actor, localTime);
}
