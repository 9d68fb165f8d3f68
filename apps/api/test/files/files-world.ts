import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { CollectionRow } from '../../src/db/rows.js';
import type { AppContext } from '../../src/context.js';
import type { CollectionMode } from '../../src/db/database.js';
import { newId } from '../../src/db/ids.js';
import { fileKeys } from '../../src/files/files.keys.js';
import type { FileRow } from '../../src/files/files.repository.js';
import { buildWorld, type World } from '../members/world.js';

export type CollectionKind = 'owned' | 'uploaders' | 'shared';
export const COLLECTION_KINDS: CollectionKind[] = ['owned', 'uploaders', 'shared'];

/**
 * The members' world plus collections and files: the owner's owned collection (hidden from
 * uploaders), the uploader's own owned collection, an admin's collaborative one, and one in the
 * other team; each holds one file with its thumbnail and preview made (and stored, unless
 * `objects: false`).
 */
export interface FilesWorld extends World {
  collections: Record<CollectionKind | 'foreign', CollectionRow>;
  files: Record<CollectionKind | 'foreign', FileRow>;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function createCollection(
  ctx: AppContext,
  input: { teamId: string; createdBy: string; mode: CollectionMode; name?: string; at?: number },
): Promise<CollectionRow> {
  const at = input.at ?? ctx.clock();
  const row: CollectionRow = {
    id: newId(),
    team_id: input.teamId,
    name: input.name ?? 'Collection',
    description: null,
    mode: input.mode,
    status: 'draft',
    files_count: 0,
    created_at: at,
    created_by: input.createdBy,
    updated_at: at,
    updated_by: input.createdBy,
    deadline_at: null,
    deadline_zone: null,
    allow_late_uploads: 0,
  };
  await ctx.db.insertInto('collections').values(row).execute();
  return row;
}

let tinyWebp: Promise<Buffer> | undefined;

/** A 4×4 WebP, standing in for made renditions where their pixels do not matter. */
function tinyWebpBytes(): Promise<Buffer> {
  tinyWebp ??= sharp({ create: { width: 4, height: 4, channels: 3, background: '#09c' } })
    .webp()
    .toBuffer();
  return tinyWebp;
}

/**
 * A stored file written straight to storage and the database, as an upload would leave it;
 * `renditions` adds a thumbnail and a preview as the rendition job would. `objects: false`
 * writes the row only, for tests that never read the bytes (storage writes are fsynced).
 */
export async function createStoredFile(
  ctx: AppContext,
  input: {
    collection: CollectionRow;
    uploadedBy: string;
    data?: Buffer;
    name?: string;
    contentType?: string;
    renditions?: boolean;
    objects?: boolean;
    at?: number;
  },
): Promise<FileRow> {
  const { collection } = input;
  const data = input.data ?? Buffer.from(`file ${newId()}\n`);
  const at = input.at ?? ctx.clock();
  const id = newId();
  const keys = fileKeys({ teamId: collection.team_id, collectionId: collection.id, fileId: id });
  const objects = input.objects ?? true;
  if (objects) await ctx.storage.put(keys.original, Readable.from(data));
  if (objects && input.renditions) {
    const webp = await tinyWebpBytes();
    await ctx.storage.put(keys.thumbnail, Readable.from(webp));
    await ctx.storage.put(keys.preview, Readable.from(webp));
  }
  const row: FileRow = {
    id,
    team_id: collection.team_id,
    collection_id: collection.id,
    name: input.name ?? `file-${id.slice(-6)}.txt`,
    original_name: input.name ?? `file-${id.slice(-6)}.txt`,
    content_type: input.contentType ?? 'text/plain',
    size: data.length,
    sha256: sha256(data),
    received_sha256: sha256(data),
    storage_key: keys.original,
    uploaded_by: input.uploadedBy,
    rendition_status: input.renditions ? 'ready' : 'none',
    thumbnail_key: input.renditions ? keys.thumbnail : null,
    preview_key: input.renditions ? keys.preview : null,
    width: input.renditions ? 4 : null,
    height: input.renditions ? 4 : null,
    created_at: at,
    updated_at: at,
    damaged_at: null,
    link_id: null,
    guest_id: null,
    guest_name: null,
    guest_email: null,
    late: 0,
  };
  await ctx.db.insertInto('files').values(row).execute();
  await ctx.db
    .updateTable('collections')
    .set((eb) => ({ files_count: eb('files_count', '+', 1), status: 'ready' }))
    .where('id', '=', collection.id)
    .execute();
  return row;
}

export async function buildFilesWorld(
  ctx: AppContext,
  options: { objects?: boolean } = {},
): Promise<FilesWorld> {
  const world = await buildWorld(ctx);
  const { users, team, otherTeam } = world;
  const collections = {
    owned: await createCollection(ctx, {
      teamId: team.id,
      createdBy: users.owner.id,
      mode: 'owned',
      name: "Owner's",
    }),
    uploaders: await createCollection(ctx, {
      teamId: team.id,
      createdBy: users.uploader.id,
      mode: 'owned',
      name: "Uploader's",
    }),
    shared: await createCollection(ctx, {
      teamId: team.id,
      createdBy: users.admin.id,
      mode: 'collaborative',
      name: 'Shared',
    }),
    foreign: await createCollection(ctx, {
      teamId: otherTeam.id,
      createdBy: users.foreigner.id,
      mode: 'collaborative',
      name: 'Foreign',
    }),
  };
  const file = (collection: CollectionRow, uploadedBy: string) =>
    createStoredFile(ctx, { collection, uploadedBy, renditions: true, objects: options.objects });
  const files = {
    owned: await file(collections.owned, users.owner.id),
    uploaders: await file(collections.uploaders, users.uploader.id),
    shared: await file(collections.shared, users.uploader.id),
    foreign: await file(collections.foreign, users.foreigner.id),
  };
  return { ...world, collections, files };
}

/** Every object under the storage root, temp files apart, as sorted relative paths. */
export async function storedObjects(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    },
  );
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .filter((p) => !p.startsWith('.tmp'))
    .sort();
}

/** The files left in storage's temp folder. */
export async function tempFiles(root: string): Promise<string[]> {
  return (await readdir(path.join(root, '.tmp')).catch(() => [])).sort();
}

/** Every row and object a files call could write, to prove a refusal (or a list) wrote nothing. */
export async function filesSnapshot(ctx: AppContext, storageRoot: string): Promise<string> {
  const db = ctx.db;
  const [files, reads, collectionReads, collections, tags, jobs, objects] = await Promise.all([
    db.selectFrom('files').selectAll().orderBy('id').execute(),
    db.selectFrom('file_reads').selectAll().orderBy('file_id').orderBy('user_id').execute(),
    db
      .selectFrom('collection_reads')
      .selectAll()
      .orderBy('collection_id')
      .orderBy('user_id')
      .execute(),
    db.selectFrom('collections').selectAll().orderBy('id').execute(),
    db.selectFrom('collection_tags').selectAll().orderBy('collection_id').execute(),
    db
      .selectFrom('jobs')
      .select(['id', 'queue', 'payload'])
      .where('queue', 'like', 'files.%')
      .orderBy('id')
      .execute(),
    storedObjects(storageRoot),
  ]);
  return JSON.stringify({ files, reads, collectionReads, collections, tags, jobs, objects });
}
