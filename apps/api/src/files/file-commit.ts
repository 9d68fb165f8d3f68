import { sql } from 'kysely';
import { requireAccess, type CollectionAccess } from '../access/access.js';
import { lockTeamRow } from '../teams/teams.repository.js';
import { can } from '../access/rules.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { UserRow } from '../users/users.repository.js';
import { collectionClosed, uploadTimingOf } from '../collections/deadlines.js';
import { cleanOriginalName, safeFileName } from './file-name.js';
import { insertFile, markOwnUploadRead, moveCollection, type FileRow } from './files.repository.js';
import { renderFileJob } from './renditions.job.js';
import { canRender } from './renditions.js';
import { isTypeAllowed, sniffContentType } from './sniff.js';
import { stripStoredLocation } from './stored-location.js';

/** What committing a file needs: a job has no full AppContext. */
export type CommitDeps = Pick<AppContext, 'config' | 'db' | 'clock'>;

export function fileTooLarge(ctx: CommitDeps, cause?: unknown): AppError {
  return new AppError('fileTooLarge', {
    message: `Files may have at most ${ctx.config.files.maxFileBytes} bytes`,
    cause,
  });
}

/**
 * Bytes a team holds: its files, those in its trash (their objects are still stored), and the
 * declared size of its uploads in progress.
 */
async function teamStoredBytes(db: Db, teamId: string): Promise<number> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('files')
        .select(sql<string | number>`coalesce(sum(size), 0)`.as('n'))
        .where('team_id', '=', teamId)
        .as('files'),
      eb
        .selectFrom('trash')
        .select(sql<string | number>`coalesce(sum(size), 0)`.as('n'))
        .where('team_id', '=', teamId)
        .where('kind', '=', 'file')
        .as('trash'),
      eb
        .selectFrom('uploads')
        .select(sql<string | number>`coalesce(sum(size), 0)`.as('n'))
        .where('team_id', '=', teamId)
        .where('status', '=', 'uploading')
        .as('uploads'),
    ])
    .executeTakeFirstOrThrow();
  return Number(row.files) + Number(row.trash) + Number(row.uploads);
}

/**
 * The team's row lock that serialises the quota's check-then-write on PostgreSQL (SQLite has one
 * writer). Every commit path takes it first, before the collection's row, so commits never wait
 * on each other in a cycle: with the multipart commit locking the team then the collection, and
 * the tus commit the collection then the team (the file row's foreign key), PostgreSQL answered
 * 40P01 "deadlock detected". `FOR NO KEY UPDATE`, not `FOR UPDATE`: it still excludes another
 * quota check, but not the key-share lock a foreign key takes when a row pointing at the team is
 * written, so nothing that only references the team waits on it.
 */
export async function lockTeamForQuota(ctx: CommitDeps, db: Db, teamId: string): Promise<void> {
  if (ctx.config.files.teamMaxBytes === 0) return;
  await lockTeamRow(db, ctx.config.database.kind, teamId);
}

/**
 * Refuses `bytes` more for a team over UPLOAD_TEAM_MAX_BYTES. Inside the transaction that adds
 * them, after a row lock on PostgreSQL, so two uploads cannot both take the last free space.
 */
export async function assertTeamHasRoom(
  ctx: CommitDeps,
  db: Db,
  teamId: string,
  bytes: number,
): Promise<void> {
  const limit = ctx.config.files.teamMaxBytes;
  if (limit === 0) return;
  await lockTeamForQuota(ctx, db, teamId);
  if ((await teamStoredBytes(db, teamId)) + bytes > limit) {
    throw new AppError('quotaExceededStorage', {
      message: `The team may store at most ${limit} bytes`,
    });
  }
}

export interface StoredBytes {
  fileId: string;
  storageKey: string;
  size: number;
  sha256: string;
  /** The first bytes, for sniffing the type. */
  head: Buffer;
  /** The name the client gave. */
  clientName: string | undefined;
}

/**
 * The file row of stored bytes, after their sniffed type passed the configured list. In a team
 * that strips locations, an image's GPS position is removed from the stored bytes first, and the
 * row carries the digest of what is stored (`sha256`) beside that of what arrived
 * (`received_sha256`, what the duplicate lookup compares).
 */
export async function fileRowFor(
  ctx: CommitDeps & Pick<AppContext, 'storage'>,
  access: CollectionAccess,
  bytes: StoredBytes,
): Promise<FileRow> {
  const sniffed = await sniffContentType(bytes.head, bytes.size <= bytes.head.length);
  if (!isTypeAllowed(sniffed.contentType, ctx.config.files.allowedTypes)) {
    throw new AppError('fileTypeNotAllowed', {
      message: `Files of type ${sniffed.contentType} are not accepted`,
    });
  }
  let { size, sha256 } = bytes;
  if (access.team.strip_location === 1) {
    const stripped = await stripStoredLocation(
      ctx.storage,
      bytes.storageKey,
      size,
      sniffed.contentType,
    );
    if (stripped) ({ size, sha256 } = stripped);
  }
  const now = ctx.clock();
  return {
    id: bytes.fileId,
    team_id: access.team.id,
    collection_id: access.collection.id,
    name: safeFileName(bytes.clientName, sniffed.extension),
    original_name: cleanOriginalName(bytes.clientName),
    content_type: sniffed.contentType,
    size,
    sha256,
    received_sha256: bytes.sha256,
    storage_key: bytes.storageKey,
    uploaded_by: access.actor.id,
    rendition_status: canRender(sniffed.contentType) ? 'pending' : 'none',
    thumbnail_key: null,
    preview_key: null,
    width: null,
    height: null,
    created_at: now,
    updated_at: now,
    damaged_at: null,
    link_id: null,
    guest_id: null,
    guest_name: null,
    guest_email: null,
    late: 0,
  };
}

export interface CommitOptions {
  /** Whether the bytes still have to fit the team's limit (not when an upload reserved them). */
  checkRoom: boolean;
  /**
   * A guest's file through an upload link: the link's creator is checked as requireGuestLink
   * checks it, without the team's second-factor requirement (about members' sign-ins).
   */
  viaLink?: boolean;
  /** Runs first in the transaction; false means another process committed already. */
  claim?: (trx: Db) => Promise<boolean>;
}

/**
 * Publishes a file row for bytes already stored: in one transaction with the collection's count
 * and dates and the rendition job, after checking again that the uploader may still add files
 * (a member disabled, or a collection hidden, during a long upload adds nothing). The uploader
 * has read the file it uploaded.
 * Resolves to false when `claim` found the work done.
 */
export async function commitFileRow(
  ctx: CommitDeps,
  actor: UserRow,
  row: FileRow,
  options: CommitOptions,
): Promise<boolean> {
  const scope = { teamId: row.team_id, collectionId: row.collection_id };
  return ctx.db.transaction().execute(async (trx: Db) => {
    // The team first, then the collection: one lock order in every commit path.
    await lockTeamForQuota(ctx, trx, scope.teamId);
    const current = await requireAccess(
      ctx,
      actor,
      { team: scope.teamId, collection: scope.collectionId },
      can.uploadFile,
      { db: trx, secondFactorExempt: options.viaLink === true },
    );
    if (options.claim && !(await options.claim(trx))) return false;
    // On the locked row as it is now: a deadline passed or moved during a long upload counts.
    const timing = uploadTimingOf(current.collection, ctx.clock());
    if (timing === 'closed') throw collectionClosed();
    if (options.checkRoom) await assertTeamHasRoom(ctx, trx, scope.teamId, row.size);
    if (!(await moveCollection(trx, scope, { delta: 1, now: row.created_at, actorId: actor.id })))
      throw new AppError('notFound');
    await insertFile(trx, { ...row, late: timing === 'late' ? 1 : 0 });
    await markOwnUploadRead(trx, row, current.collection.updated_at);
    if (row.rendition_status === 'pending') {
      await enqueueJob(trx, renderFileJob, { payload: { fileId: row.id } }, ctx.clock);
    }
    return true;
  });
}
