import type { FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteFileObjectsJob } from '../../src/files/delete-file-objects.job.js';
import { fileKeys } from '../../src/files/files.keys.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import { localStorageRoot } from '../helpers/local-storage-root.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { filesClient, type FilesClient } from './files-api.js';
import {
  buildFilesWorld,
  createCollection,
  storedObjects,
  type FilesWorld,
} from './files-world.js';
import { makeJpeg } from './images.js';

describe('deleting a file', () => {
  let server: TestServer;
  let world: FilesWorld;
  let admin: FilesClient;
  let root: string;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { worker: true });
    world = await buildFilesWorld(server.ctx);
    admin = await filesClient(server, world.users.admin);
    root = localStorageRoot(server.config);
  });
  afterAll(() => server.close());

  const collectionRow = (id: string) =>
    server.ctx.db
      .selectFrom('collections')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();

  it('moves the file to the trash (its objects stay), restores it, and purging removes its objects', async () => {
    const collection = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.admin.id,
      mode: 'collaborative',
    });
    await server.ctx.db
      .insertInto('collection_tags')
      .values({
        collection_id: collection.id,
        user_id: world.users.viewer.id,
        team_id: world.team.id,
        updated_at: 1,
        position: 0,
      })
      .execute();
    const url = `/teams/${world.team.id}/collections/${collection.id}/files`;
    const upload = async (filename: string, data: Buffer) => {
      const res = await admin.upload(world.team.id, collection.id, { filename, data });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<FileItem>();
    };
    const photo = await upload('photo.jpg', await makeJpeg(400, 300));
    const notes = await upload('notes.txt', Buffer.from('notes'));
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await fileRow(photo.fileId))?.rendition_status === 'ready',
      'the renditions',
      30_000,
    );
    const keys = fileKeys({
      teamId: world.team.id,
      collectionId: collection.id,
      fileId: photo.fileId,
    });
    const objects = await storedObjects(root);
    expect(objects).toEqual(expect.arrayContaining([keys.original, keys.thumbnail, keys.preview]));
    expect((await admin.get(`${url}/${photo.fileId}`)).statusCode).toBe(200);
    const marked = await server.ctx.db
      .selectFrom('file_reads')
      .select('user_id')
      .where('file_id', '=', photo.fileId)
      .execute();
    expect(marked).toEqual([{ user_id: world.users.admin.id }]);
    expect(await collectionRow(collection.id)).toMatchObject({ files_count: 2, status: 'ready' });

    const before = (await collectionRow(collection.id)).updated_at;
    const res = await admin.delete(`${url}/${photo.fileId}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect(await fileRow(photo.fileId)).toBeUndefined();
    const reads = await server.ctx.db
      .selectFrom('file_reads')
      .selectAll()
      .where('file_id', '=', photo.fileId)
      .execute();
    expect(reads).toEqual([]);
    const moved = await collectionRow(collection.id);
    expect(moved).toMatchObject({
      files_count: 1,
      status: 'ready',
      updated_by: world.users.admin.id,
    });
    expect(moved.updated_at).toBeGreaterThanOrEqual(before);
    const tag = await server.ctx.db
      .selectFrom('collection_tags')
      .select('updated_at')
      .where('collection_id', '=', collection.id)
      .executeTakeFirstOrThrow();
    expect(tag.updated_at).toBe(moved.updated_at);

    // In the trash: gone from the lists, its objects kept.
    expect((await admin.get(`${url}/${photo.fileId}`)).statusCode).toBe(404);
    expect(ids(await admin.listAll(url))).toEqual([notes.fileId]);
    const stored = await storedObjects(root);
    expect(stored).toEqual(expect.arrayContaining([keys.original, keys.thumbnail, keys.preview]));
    const trash = async () => {
      const res = await admin.get(`/teams/${world.team.id}/trash`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ items: { itemId: string; kind: string; collectionName: string }[] }>();
    };
    expect((await trash()).items).toEqual([
      expect.objectContaining({ itemId: photo.fileId, kind: 'file' }),
    ]);
    const call = (path: string, itemIds: string[]) =>
      server.app.inject({
        method: 'POST',
        url: `/api/teams/${world.team.id}/trash/${path}`,
        headers: admin.headers,
        payload: { itemIds },
      });

    // Restored: back in its collection, as it was.
    const restored = await call('restore', [photo.fileId]);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual({ files: 1, collections: 0 });
    expect(await fileRow(photo.fileId)).toMatchObject({ rendition_status: 'ready' });
    expect(ids(await admin.listAll(url)).sort()).toEqual([photo.fileId, notes.fileId].sort());
    expect(await collectionRow(collection.id)).toMatchObject({ files_count: 2, status: 'ready' });
    expect((await trash()).items).toEqual([]);
    expect((await call('restore', [photo.fileId])).statusCode).toBe(404);

    // Deleted again and purged: its objects go.
    expect((await admin.delete(`${url}/${photo.fileId}`)).statusCode).toBe(204);
    const purged = await call('purge', [photo.fileId]);
    expect(purged.statusCode, purged.body).toBe(200);
    expect(purged.json<{ files: number }>().files).toBe(1);
    server.worker?.worker.poke();
    await waitUntil(async () => {
      const left = await storedObjects(root);
      return ![keys.original, keys.thumbnail, keys.preview].some((k) => left.includes(k));
    }, 'the objects to go');
    expect((await trash()).items).toEqual([]);
    expect((await call('restore', [photo.fileId])).statusCode).toBe(404);

    // The last file: the collection is a draft again.
    expect((await admin.delete(`${url}/${notes.fileId}`)).statusCode).toBe(204);
    expect(await collectionRow(collection.id)).toMatchObject({ files_count: 0, status: 'draft' });
    expect((await admin.delete(`${url}/${notes.fileId}`)).statusCode).toBe(404);
  });

  it('deletes objects idempotently: a second run of the job succeeds and changes nothing', async () => {
    const keys = fileKeys({
      teamId: world.team.id,
      collectionId: world.collections.shared.id,
      fileId: world.files.shared.id,
    });
    const run = deleteFileObjectsJob.prepare({ keys: [keys.original, keys.thumbnail] });
    const job = {
      id: 'manual',
      queue: deleteFileObjectsJob.queue,
      attempt: 1,
      maxAttempts: 5,
      createdAt: 0,
      signal: new AbortController().signal,
    };
    await run({ storage: server.ctx.storage }, job);
    await run({ storage: server.ctx.storage }, job);
    const stored = await storedObjects(root);
    expect(stored).not.toContain(keys.original);
    expect(stored).not.toContain(keys.thumbnail);
    expect(stored).toContain(keys.preview);
  });
});

function ids(files: { fileId: string }[]): string[] {
  return files.map((f) => f.fileId);
}
