import { Transform, pipeline, type Readable, type TransformCallback } from 'node:stream';
import type { FileItem } from '@raccolta/contracts';
import { requireAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import type { AppContext } from '../context.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { StorageTooLargeError, type PutResult } from '../storage/storage.js';
import type { UserRow } from '../users/users.repository.js';
import { collectionClosed, uploadTimingOf } from '../collections/deadlines.js';
import { assertTeamHasRoom, commitFileRow, fileRowFor, fileTooLarge } from './file-commit.js';
import { encryptsFiles, fileKeys } from './files.keys.js';
import { presentFilesFor } from './files.service.js';
import type { FileRow } from './files.repository.js';
import { SNIFF_BYTES } from './sniff.js';

/** The multipart part that carries the file, as @fastify/multipart hands it over. */
export interface UploadPart {
  fieldname: string;
  filename: string | undefined;
  /** Busboy's stream: `truncated` once it cut the part at the size limit. */
  file: Readable & { truncated?: boolean };
}

/**
 * Keeps a copy of the first bytes that pass through, for sniffing, and passes everything on,
 * counting them.
 */
class HeadCapture extends Transform {
  private readonly chunks: Buffer[] = [];
  private captured = 0;
  passed = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.passed += chunk.length;
    if (this.captured < this.limit) {
      // A copy, so the head does not keep a whole large chunk alive.
      const piece = Buffer.from(chunk.subarray(0, this.limit - this.captured));
      this.chunks.push(piece);
      this.captured += piece.length;
    }
    callback(null, chunk);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function malformed(cause: unknown): AppError {
  return new AppError('invalidInput', { message: 'The multipart body is malformed', cause });
}

/** Streams the part into storage under an id-only key; nothing of it is ever held whole. */
async function store(ctx: AppContext, key: string, part: UploadPart) {
  const head = new HeadCapture(SNIFF_BYTES);
  // A body that breaks off or does not parse is the client's fault, unlike a failing disk: the
  // write then fails with the very error the part's stream raised (maybe before this listened).
  let bodyError: unknown = null;
  part.file.once('error', (err) => (bodyError = err));
  // pipeline, not pipe: a failing upload destroys the capture, which fails the storage write.
  const source = pipeline(part.file, head, () => undefined);
  let stored: PutResult;
  try {
    stored = await ctx.storage.put(key, source, { maxBytes: ctx.config.files.maxFileBytes });
  } catch (err) {
    if (err instanceof StorageTooLargeError) throw fileTooLarge(ctx, err);
    if (err === (part.file.errored ?? bodyError)) throw malformed(err);
    throw err;
  } finally {
    ctx.metrics.uploadReceivedBytes.inc({ protocol: 'multipart' }, head.passed);
  }
  if (part.file.truncated) {
    await ctx.storage.delete(key);
    throw fileTooLarge(ctx);
  }
  // Asked without `digest: false`, every driver answers one.
  const { sha256 } = stored;
  if (sha256 === null) throw new Error(`The storage gave no SHA-256 for ${key}`);
  return { stored: { ...stored, sha256 }, head: head.bytes() };
}

/**
 * POST …/collections/{collectionId}/files. The caller's right is checked before a byte is read;
 * the bytes are committed to storage first and the row after, in one transaction with the
 * collection's count and dates and the rendition job, so a row never points at missing bytes.
 * Whatever fails after the bytes were stored deletes them again.
 */
export async function uploadFile(
  ctx: AppContext,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  nextPart: () => Promise<UploadPart | undefined>,
): Promise<FileItem> {
  const access = await requireAccess(
    ctx,
    actor,
    { team: teamRef, collection: collectionId },
    can.uploadFile,
  );
  // A closed collection, and a team already at its limit, are refused before the body is read.
  if (uploadTimingOf(access.collection, ctx.clock()) === 'closed') throw collectionClosed();
  await assertTeamHasRoom(ctx, ctx.db, access.team.id, 1);
  const part = await nextPart().catch((err: unknown) => {
    throw malformed(err);
  });
  if (part?.fieldname !== 'file') {
    part?.file.resume();
    throw new AppError('invalidInput', { message: 'Send the file as a multipart part named file' });
  }

  const fileId = newId();
  const key = fileKeys({
    teamId: access.team.id,
    collectionId: access.collection.id,
    fileId,
    encrypted: encryptsFiles(access.team),
  }).original;
  const { stored, head } = await store(ctx, key, part);
  let row: FileRow;
  try {
    row = await fileRowFor(ctx, access, {
      fileId,
      storageKey: key,
      size: stored.size,
      sha256: stored.sha256,
      head,
      clientName: part.filename,
    });
    await commitFileRow(ctx, actor, row, { checkRoom: true });
  } catch (err) {
    await ctx.storage.delete(key).catch((deleteErr: unknown) => {
      ctx.logger.warn({ err: deleteErr, key }, 'could not delete the bytes of a refused upload');
    });
    throw err;
  }
  const [file] = await presentFilesFor(ctx, actor.id, [row]);
  if (!file) throw new Error('the uploaded file could not be presented');
  return file;
}
