/**
 * What s3rver 3.7 lacks of the multipart API that our driver and @tus/s3-store call: ListParts,
 * AbortMultipartUpload and ListMultipartUploads. Answered from s3rver's own upload directories
 * (`<bucket>/._S3rver_uploads/<uploadId>/` holding `key`, `metadata`, and a file per part with
 * its `.md5` written once the part is complete), with the XML and errors S3 answers.
 * Path-style requests only, which is how the harness is reached (an IP endpoint).
 */
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FilesystemStore, S3rverContext, S3rverMiddleware } from 's3rver';

const S3_NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export function multipartExtensions(
  store: FilesystemStore,
  options: { listMultipartUploads: boolean },
): S3rverMiddleware {
  return async (ctx, next) => {
    const target = parseTarget(ctx.path);
    if (target === null) {
      await next();
      return;
    }
    const uploadId = param(ctx, 'uploadId');
    if (target.key !== undefined && uploadId !== undefined && !('partNumber' in ctx.query)) {
      if (ctx.method === 'GET') return listParts(store, ctx, target.bucket, target.key, uploadId);
      if (ctx.method === 'DELETE') return abort(store, ctx, target.bucket, target.key, uploadId);
    }
    const listing = target.key === undefined && ctx.method === 'GET' && 'uploads' in ctx.query;
    if (listing && options.listMultipartUploads) {
      return listUploads(store, ctx, target.bucket);
    }
    await next();
  };
}

interface PendingUpload {
  key: string;
  uploadId: string;
  dir: string;
  initiated: Date;
}

async function listParts(
  store: FilesystemStore,
  ctx: S3rverContext,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<void> {
  const upload = await findUpload(store, bucket, uploadId);
  if (upload?.key !== key) return noSuchUpload(ctx, uploadId);
  const marker = Number(param(ctx, 'part-number-marker') ?? 0);
  const maxParts = Math.min(Number(param(ctx, 'max-parts') ?? 1000), 1000);

  const names = await readdir(upload.dir);
  const completed = new Set(names.filter((n) => n.endsWith('.md5')).map((n) => n.slice(0, -4)));
  const numbers = names
    .filter((n) => /^\d+$/.test(n) && completed.has(n))
    .map(Number)
    .filter((n) => n > marker)
    .sort((a, b) => a - b);
  const page = numbers.slice(0, maxParts);
  const parts = await Promise.all(
    page.map(async (number) => {
      const file = path.join(upload.dir, String(number));
      const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
      return xml('Part', [
        xml('PartNumber', number),
        xml('LastModified', info.mtime.toISOString()),
        xml('ETag', `"${md5}"`),
        xml('Size', info.size),
      ]);
    }),
  );
  const truncated = numbers.length > page.length;
  sendXml(
    ctx,
    xml('ListPartsResult', [
      xml('Bucket', bucket),
      xml('Key', key),
      xml('UploadId', uploadId),
      xml('PartNumberMarker', marker),
      ...(truncated ? [xml('NextPartNumberMarker', page.at(-1) ?? marker)] : []),
      xml('MaxParts', maxParts),
      xml('IsTruncated', truncated),
      xml('StorageClass', 'STANDARD'),
      ...parts,
    ]),
  );
}

async function abort(
  store: FilesystemStore,
  ctx: S3rverContext,
  bucket: string,
  key: string,
  uploadId: string,
): Promise<void> {
  const upload = await findUpload(store, bucket, uploadId);
  if (upload?.key !== key) return noSuchUpload(ctx, uploadId);
  await rm(upload.dir, { recursive: true, force: true });
  ctx.status = 204;
  ctx.body = null;
}

async function listUploads(
  store: FilesystemStore,
  ctx: S3rverContext,
  bucket: string,
): Promise<void> {
  const prefix = param(ctx, 'prefix') ?? '';
  const keyMarker = param(ctx, 'key-marker') ?? '';
  const uploadIdMarker = param(ctx, 'upload-id-marker') ?? '';
  const maxUploads = Math.min(Number(param(ctx, 'max-uploads') ?? 1000), 1000);

  let ids: string[] = [];
  try {
    ids = await readdir(uploadsDir(store, bucket));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const uploads = (await Promise.all(ids.map((id) => findUpload(store, bucket, id))))
    .filter((u): u is PendingUpload => u !== null && u.key.startsWith(prefix))
    .filter((u) =>
      uploadIdMarker === ''
        ? u.key > keyMarker
        : u.key > keyMarker || (u.key === keyMarker && u.uploadId > uploadIdMarker),
    )
    .sort((a, b) => compare(a.key, b.key) || compare(a.uploadId, b.uploadId));
  const page = uploads.slice(0, maxUploads);
  const last = page.at(-1);
  const truncated = uploads.length > page.length;
  sendXml(
    ctx,
    xml('ListMultipartUploadsResult', [
      xml('Bucket', bucket),
      xml('KeyMarker', keyMarker),
      xml('UploadIdMarker', uploadIdMarker),
      ...(truncated && last
        ? [xml('NextKeyMarker', last.key), xml('NextUploadIdMarker', last.uploadId)]
        : []),
      xml('Prefix', prefix),
      xml('MaxUploads', maxUploads),
      xml('IsTruncated', truncated),
      ...page.map((u) =>
        xml('Upload', [
          xml('Key', u.key),
          xml('UploadId', u.uploadId),
          xml('StorageClass', 'STANDARD'),
          xml('Initiated', u.initiated.toISOString()),
        ]),
      ),
    ]),
  );
}

function uploadsDir(store: FilesystemStore, bucket: string): string {
  return store.getResourcePath(bucket, undefined, 'uploads');
}

/**
 * An upload exists from InitiateMultipartUpload (which writes `key`) until completion or abort.
 * s3rver's UploadPart recreates a missing directory, so one without `key` is not an upload.
 */
async function findUpload(
  store: FilesystemStore,
  bucket: string,
  uploadId: string,
): Promise<PendingUpload | null> {
  if (!/^[0-9a-f]+$/.test(uploadId)) return null;
  const dir = path.join(uploadsDir(store, bucket), uploadId);
  try {
    const keyFile = path.join(dir, 'key');
    const [key, info] = await Promise.all([readFile(keyFile, 'utf8'), stat(keyFile)]);
    return { key, uploadId, dir, initiated: info.mtime };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseTarget(rawPath: string): { bucket: string; key?: string } | null {
  // Bucket operations come as `/bucket` or `/bucket/`.
  const match = /^\/([^/]+)(?:\/(.*))?$/.exec(rawPath);
  if (!match?.[1]) return null;
  const bucket = decodeURIComponent(match[1]);
  return match[2] ? { bucket, key: decodeURIComponent(match[2]) } : { bucket };
}

function param(ctx: S3rverContext, name: string): string | undefined {
  const value = ctx.query[name];
  return Array.isArray(value) ? value[0] : value;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function noSuchUpload(ctx: S3rverContext, uploadId: string): void {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body = document(
    xml('Error', [
      xml('Code', 'NoSuchUpload'),
      xml(
        'Message',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may ' +
          'have been aborted or completed.',
      ),
      xml('UploadId', uploadId),
    ]),
  );
}

function sendXml(ctx: S3rverContext, body: string): void {
  ctx.status = 200;
  ctx.type = 'application/xml';
  ctx.body = document(body.replace(/^<(\w+)>/, `<$1 xmlns="${S3_NS}">`));
}

function document(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

function xml(tag: string, content: string | number | boolean | string[]): string {
  const inner = Array.isArray(content) ? content.join('') : escapeXml(String(content));
  return `<${tag}>${inner}</${tag}>`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
