import {
  archiveFileName,
  requestedLocalTime,
  type CreateDownloadRequest,
  type Download,
  type DownloadLinkResponse,
  type DownloadPart,
} from '@raccolta/contracts';
import { requireAccess } from '../access/access.js';
import { lockTeamRow } from '../teams/teams.repository.js';
import { can } from '../access/rules.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { newId } from '../db/ids.js';
import { reserve } from '../db/rate-limits.js';
import { AppError } from '../errors/app-error.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { UserRow } from '../users/users.repository.js';
import { buildDownloadJob } from './build-download.job.js';
import { buildJobKey } from './downloads.keys.js';
import { selectionOf, type DownloadSelection } from './download-selection.js';
import {
  downloadsInProgress,
  findPart,
  insertDownload,
  partsOf,
  readyDownloadsOf,
  selectionTotals,
  teamArchiveBytes,
  teamStoredBytes,
} from './downloads.repository.js';
import {
  presentDownload,
  presentPart,
  type DownloadPartRow,
  type DownloadRow,
} from './downloads.presenter.js';

/** Downloads one member may have in progress at once; more is tooManyRequests. */
export const MAX_DOWNLOADS_IN_PROGRESS = 5;

const HOUR_MS = 60 * 60_000;

/** The team budget's floor, so a team that stores little can still prepare its archives. */
export const DOWNLOAD_TEAM_BUDGET_MIN_BYTES = 1024 ** 3;

/**
 * A ready archive of the same member, collection and selection, not yet expired, whose contents
 * are still those of the selection now: the same number of files and bytes, and no file of it
 * renamed or added since it was requested. Asking again answers it instead of building a copy.
 */
async function reusableReadyDownload(
  db: Db,
  userId: string,
  access: { team: { id: string }; collection: { id: string } },
  prefix: string | null,
  fileIds: string | null,
  now: number,
): Promise<DownloadRow | undefined> {
  for (const row of await readyDownloadsOf(db, userId, access.collection.id, now)) {
    if (!sameSelection(row, prefix, fileIds)) continue;
    const current = await selectionTotals(db, { ...selectionOf(row), createdUpTo: now });
    if (
      current.count === row.file_count &&
      current.bytes === row.total_bytes &&
      current.changed <= row.created_at
    ) {
      return row;
    }
  }
  return undefined;
}

/**
 * Refuses a new archive when the team's archives, ready or being prepared, would hold more than
 * DOWNLOAD_TEAM_BUDGET_FACTOR times the bytes the team stores (at least 1 GiB): archives are kept
 * for days, and any member who may download could otherwise fill the disk with copies.
 */
async function assertTeamArchiveBudget(
  ctx: AppContext,
  db: Db,
  teamId: string,
  bytes: number,
  now: number,
): Promise<void> {
  const budget = Math.max(
    DOWNLOAD_TEAM_BUDGET_MIN_BYTES,
    (await teamStoredBytes(db, teamId)) * ctx.config.downloads.teamBudgetFactor,
  );
  if ((await teamArchiveBytes(db, teamId, now)) + bytes > budget) {
    throw new AppError('tooManyRequests', {
      message: 'The team’s prepared downloads hold as much as they may: try again once some expire',
    });
  }
}

function sameSelection(row: DownloadRow, prefix: string | null, fileIds: string | null): boolean {
  return row.prefix === prefix && row.file_ids === fileIds;
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
  const { requestsPerHour } = ctx.config.downloads;
  return ctx.db.transaction().execute(async (trx) => {
    const access = await requireAccess(
      ctx,
      actor,
      { team: teamRef, collection: body.collectionId },
      can.createDownload,
      { db: trx },
    );
    if (!(await reserve(trx, `download:create:${actor.id}`, requestsPerHour, HOUR_MS, now))) {
      throw new AppError('tooManyRequests', {
        message: `At most ${requestsPerHour} downloads can be requested in an hour`,
      });
    }
    // Check-then-insert below (the same request under way, the cap, the team's budget) must see
    // the requests made meanwhile: one team's requests are taken one at a time.
    await lockTeamRow(trx, ctx.config.database.kind, access.team.id);
    const inProgress = await downloadsInProgress(trx, actor.id);
    const same = inProgress.find(
      (row) => row.collection_id === access.collection.id && sameSelection(row, prefix, fileIds),
    );
    if (same) return presentDownload(same, await partsOf(trx, same.id));
    const ready = await reusableReadyDownload(trx, actor.id, access, prefix, fileIds, now);
    if (ready) return presentDownload(ready, await partsOf(trx, ready.id));
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
    const totals = await selectionTotals(trx, selection);
    if (totals.count === 0) throw new AppError('nothingToDownload');
    await assertTeamArchiveBudget(ctx, trx, access.team.id, totals.bytes, now);

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
      file_count: totals.count,
      total_bytes: totals.bytes,
      error: null,
      created_at: now,
      updated_at: now,
      ready_at: null,
      expires_at: null,
    };
    await insertDownload(trx, row);
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
async function ownDownload(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  downloadId: string,
): Promise<DownloadRow> {
  const access = await requireAccess(
    ctx,
    actor,
    { team: teamRef, download: downloadId },
    can.readDownload,
  );
  return access.download;
}

export async function getDownload(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  downloadId: string,
): Promise<Download> {
  const row = await ownDownload(ctx, actor, teamRef, downloadId);
  return presentDownload(row, await partsOf(ctx.db, row.id));
}

async function requirePart(db: Db, downloadId: string, partId: number): Promise<DownloadPartRow> {
  const part = await findPart(db, downloadId, partId);
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
  const row = await ownDownload(ctx, actor, teamRef, downloadId);
  assertOffered(row);
  return presentPart(await requirePart(ctx.db, row.id, partId));
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
  const row = await ownDownload(ctx, actor, teamRef, downloadId);
  assertOffered(row);
  if (row.total_parts === null || row.status !== 'ready') throw new AppError('downloadNotReady');
  if (row.total_parts > 1)
    throw new AppError('invalidDownload', {
      message: `This download has ${row.total_parts} parts: ask for each part's link`,
    });
  return linkTo(ctx, row, await requirePart(ctx.db, row.id, 1), actor, localTime);
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
  const row = await ownDownload(ctx, actor, teamRef, downloadId);
  assertOffered(row);
  return linkTo(ctx, row, await requirePart(ctx.db, row.id, partId), actor, localTime);
}
