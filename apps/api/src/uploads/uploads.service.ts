import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Upload } from '@tus/utils';
import { requireAccess, type CollectionAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import type { AppContext } from '../context.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import {
  assertTeamHasRoom,
  commitFileRow,
  fileRowFor,
  fileTooLarge,
  type CommitDeps,
} from '../files/file-commit.js';
import { encryptsFiles, fileKeys } from '../files/files.keys.js';
import { cleanOriginalName } from '../files/file-name.js';
import { findFileById } from '../files/files.repository.js';
import { isTypeAllowed, SNIFF_BYTES } from '../files/sniff.js';
import { linkIsOpen, linkNotFound } from '../access/guest-access.js';
import { acceptedTypesOf } from '../links/links.presenter.js';
import { findLinkById, releaseOnLink, reserveOnLink } from '../links/links.repository.js';
import { collectionClosed, uploadTimingOf } from '../collections/deadlines.js';
import type { CollectionRow } from '../db/rows.js';
import type { UserRow } from '../users/users.repository.js';
import type { UploadBackend } from './upload-backends.js';
import {
  claimUpload,
  deleteUpload,
  findUpload,
  insertUpload,
  type UploadRow,
} from './uploads.repository.js';

export type UploadDeps = CommitDeps & Pick<AppContext, 'storage'> & { backend: UploadBackend };

/** The longest client file name kept on an upload row, cleaned (the file row bounds it again). */
const MAX_NAME = 1024;

/**
 * POST …/uploads, before tus reads anything: the caller may upload into the collection and the
 * declared size is within the per-file limit. Resolves to the new upload's id.
 */
export async function prepareUpload(
  ctx: UploadDeps,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  uploadLength: string | undefined,
): Promise<{ access: CollectionAccess; uploadId: string; size: number }> {
  const access = await requireAccess(
    ctx,
    actor,
    { team: teamRef, collection: collectionId },
    can.uploadFile,
  );
  return { access, ...checkUploadLength(ctx, uploadLength, access.collection) };
}

/**
 * The declared size, within the per-file limit, for a collection still open for uploads (its
 * deadline), and the new upload's id.
 */
export function checkUploadLength(
  ctx: CommitDeps,
  uploadLength: string | undefined,
  collection: CollectionRow,
): { uploadId: string; size: number } {
  if (uploadLength === undefined || !/^\d{1,16}$/.test(uploadLength)) {
    throw new AppError('invalidInput', {
      message: 'Declare the size in Upload-Length (deferred lengths are not accepted)',
    });
  }
  assertOpenForUploads(ctx, collection);
  const size = Number(uploadLength);
  if (size > ctx.config.files.maxFileBytes) throw fileTooLarge(ctx);
  return { uploadId: newId(), size };
}

/** A guest's upload through a link: who sent it, as the link asked (links/guest.service.ts). */
export interface GuestUpload {
  linkId: string;
  guestId: string;
  name: string | null;
  email: string | null;
}

/**
 * Refuses bytes for a collection whose deadline has passed (collectionClosed), unless it allows
 * late uploads: asked at creation and at every PATCH, and again when the file is committed.
 */
export function assertOpenForUploads(
  ctx: Pick<AppContext, 'clock'>,
  collection: CollectionRow,
): void {
  if (uploadTimingOf(collection, ctx.clock()) === 'closed') throw collectionClosed();
}

/**
 * The `sha256` a client may declare in the creation's metadata (the digest it computed to ask
 * whether the collection holds the file already): 64 hex digits, or the upload is refused at
 * once rather than after its last byte. What arrives is checked against it in finishUpload.
 */
export function checkDeclaredSha256(metadata: Record<string, string | null> | undefined): void {
  const declared = metadata?.sha256;
  if (declared === undefined) return;
  if (declared === null || !/^[0-9a-fA-F]{64}$/.test(declared.trim())) {
    throw new AppError('invalidInput', {
      message: 'The sha256 metadata must be the 64 hex digits of a SHA-256 digest',
    });
  }
}

/**
 * Inside tus's creation hook: the team's limit, checked and reserved in one transaction, and for
 * a guest's upload a place within the link's caps (one conditional UPDATE: parallel creations
 * never go past max_files or max_bytes).
 */
export async function reserveUpload(
  ctx: UploadDeps,
  access: CollectionAccess,
  upload: { id: string; size: number; fileName: string | undefined },
  guest?: GuestUpload,
): Promise<void> {
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    await assertTeamHasRoom(ctx, trx, access.team.id, upload.size);
    if (guest && !(await reserveOnLink(trx, guest.linkId, upload.size, now))) {
      const link = await findLinkById(trx, guest.linkId);
      throw link && linkIsOpen(link, now) ? new AppError('uploadLinkFull') : linkNotFound();
    }
    await insertUpload(trx, {
      link_id: guest?.linkId ?? null,
      guest_id: guest?.guestId ?? null,
      guest_name: guest?.name ?? null,
      guest_email: guest?.email ?? null,
      id: upload.id,
      team_id: access.team.id,
      collection_id: access.collection.id,
      created_by: access.actor.id,
      file_name: cleanOriginalName(upload.fileName, MAX_NAME),
      size: upload.size,
      status: 'uploading',
      created_at: now,
      expires_at: now + ctx.config.files.uploadExpiryMs,
    });
  });
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length >= limit) break;
  }
  stream.destroy();
  return Buffer.concat(chunks).subarray(0, limit);
}

async function sha256Of(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * An upload still marked in progress whose bytes all arrived (its commit failed or never ran):
 * what the tus store knows of it, metadata included. Null while bytes are missing or it is gone.
 */
export async function findCompleteUpload(ctx: UploadDeps, row: UploadRow): Promise<Upload | null> {
  try {
    const stored = await ctx.backend.store.getUpload(ctx.backend.storeId(row.id));
    return stored.offset === row.size ? stored : null;
  } catch {
    return null;
  }
}

/** Removes an upload that will never become a file: bytes, tus leftovers, row. */
export async function discardUpload(ctx: UploadDeps, row: UploadRow): Promise<void> {
  // Never the bytes of a file that exists: another request may have committed it meanwhile.
  const file = await findFileById(ctx.db, row.id);
  if (file) {
    await ctx.backend.release(row.id, file.storage_key);
  } else {
    // Its place on the link goes back: it never became a file.
    if (row.link_id !== null) await releaseOnLink(ctx.db, row.link_id, row.size);
    await ctx.backend.discard(row.id);
    const parts = { teamId: row.team_id, collectionId: row.collection_id, fileId: row.id };
    // Published plain or encrypted, depending on the team's plan at that moment.
    await ctx.storage.delete(fileKeys(parts).original);
    await ctx.storage.delete(fileKeys({ ...parts, encrypted: true }).original);
  }
  await deleteUpload(ctx.db, row.id);
}

/**
 * The last byte of an upload arrived (or a restarted request found it complete): make it a file.
 * The SHA-256 and the first bytes the type is sniffed from come from the stream when this
 * process saw every byte, from the stored bytes otherwise; a `sha256` the client put in the
 * metadata must match it. Bytes are published first and the row after, in one transaction that
 * also claims the upload, so a crash anywhere leaves either an upload that finishing again
 * commits, or the file — never half of it. The caller releases what the tus store keeps once it
 * no longer needs it. A refused file (type, checksum, access lost) is discarded whole.
 */
export async function finishUpload(
  ctx: UploadDeps,
  actor: UserRow,
  row: UploadRow,
  metadata: Record<string, string | null> | undefined,
): Promise<string> {
  const { backend } = ctx;
  // A guest's upload goes through its link's creator, checked as requireGuestLink checks them.
  const viaLink = row.link_id !== null;
  try {
    const access = await requireAccess(
      ctx,
      actor,
      { team: row.team_id, collection: row.collection_id },
      can.uploadFile,
      { secondFactorExempt: viaLink },
    );
    // Received whole by this process: hashed and its head kept as the bytes streamed in.
    const received = backend.store.takeReceived(backend.storeId(row.id), row.size);
    const head =
      received?.head ??
      (row.size === 0
        ? Buffer.alloc(0)
        : await readAll(
            await backend.read(row.id, { start: 0, end: Math.min(SNIFF_BYTES, row.size) - 1 }),
            SNIFF_BYTES,
          ));
    const sha256 =
      received?.sha256 ??
      (await sha256Of(row.size === 0 ? Readable.from([]) : await backend.read(row.id)));
    // Recorded on the file as `received_sha256` (fileRowFor): it is this digest once they agree.
    const claimed = metadata?.sha256?.trim().toLowerCase();
    if (claimed && claimed !== sha256) {
      throw new AppError('checksumMismatch', {
        message: 'The bytes received do not match the sha256 the client declared',
      });
    }
    const key = fileKeys({
      teamId: row.team_id,
      collectionId: row.collection_id,
      fileId: row.id,
      encrypted: encryptsFiles(access.team),
    });
    const storageKey = await publishBytes(ctx, row, key.original);
    const file = await fileRowFor(ctx, access, {
      fileId: row.id,
      storageKey,
      size: row.size,
      sha256,
      head,
      clientName: metadata?.filename ?? row.file_name,
    });
    if (row.link_id !== null) {
      // A guest's upload: the link still open, the sniffed type one it accepts.
      const link = await findLinkById(ctx.db, row.link_id);
      if (!link || !linkIsOpen(link, ctx.clock())) throw linkNotFound();
      if (!isTypeAllowed(file.content_type, acceptedTypesOf(link))) {
        throw new AppError('fileTypeNotAllowed', {
          message: `This link does not accept files of type ${file.content_type}`,
        });
      }
      Object.assign(file, {
        link_id: row.link_id,
        guest_id: row.guest_id,
        guest_name: row.guest_name,
        guest_email: row.guest_email,
      });
    }
    let committedKey = storageKey;
    await commitFileRow(ctx, actor, file, {
      checkRoom: false,
      viaLink,
      claim: async (trx) => {
        if (await claimUpload(trx, row.id)) return true;
        // Committed by another request, or gone: its collection was deleted while the last
        // bytes arrived (PostgreSQL lets this request wait on the deletion, then go on). Only
        // the first leaves a file behind the bytes just published; the second discards them.
        const committed = await findFileById(trx, row.id);
        if (!committed) throw new AppError('notFound');
        committedKey = committed.storage_key;
        return false;
      },
    });
    return committedKey;
  } catch (error) {
    if (error instanceof AppError) {
      await discardUpload(ctx, row);
      throw error;
    }
    // Its bytes went from under it with its row: the collection was deleted meanwhile.
    if (!(await findUpload(ctx.db, row.id))) {
      await discardUpload(ctx, row);
      throw new AppError('notFound');
    }
    throw error;
  }
}

/**
 * Where the bytes of a complete upload end up. An empty upload has no object in every tus store
 * (S3 completes no multipart upload without parts): it is written as an empty object instead.
 */
async function publishBytes(ctx: UploadDeps, row: UploadRow, fileKey: string): Promise<string> {
  if (row.size > 0) return ctx.backend.publish(row.id, fileKey);
  await ctx.storage.put(fileKey, Readable.from([]));
  return fileKey;
}
