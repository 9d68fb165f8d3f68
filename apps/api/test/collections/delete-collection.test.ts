import { readdir } from 'node:fs/promises';
import type { FileItem } from '@raccolta/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKeys } from '../../src/files/files.keys.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import {
  deleteCollectionRow,
  lockCollection,
  queueCollectionObjects,
} from '../../src/collections/collections.repository.js';
import { deleteQueuedObjectsJob } from '../../src/storage/delete-queued.job.js';
import { downloadsClient } from '../downloads/downloads-env.js';
import { filesClient, type FilesClient } from '../files/files-api.js';
import {
  buildFilesWorld,
  createCollection,
  storedObjects,
  type FilesWorld,
} from '../files/files-world.js';
import { makeJpeg } from '../files/images.js';
import { localStorageRoot } from '../helpers/local-storage-root.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { tusClient } from '../uploads/tus-client.js';

describe('deleting a collection', () => {
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

  const count = async (
    table: 'files' | 'collection_tags' | 'collection_reads' | 'uploads' | 'downloads',
    collectionId: string,
  ) => {
    const row = await server.ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('collection_id', '=', collectionId)
      .executeTakeFirstOrThrow();
    return row.n;
  };

  it('moves it with its files to the trash, removes its uploads and downloads, and emptying the trash removes every stored object', async () => {
    const { team, users } = world;
    const collection = await createCollection(server.ctx, {
      teamId: team.id,
      createdBy: users.admin.id,
      mode: 'collaborative',
      name: 'To go',
    });
    const base = `/teams/${team.id}/collections/${collection.id}`;
    const upload = async (filename: string, data: Buffer) => {
      const res = await admin.upload(team.id, collection.id, { filename, data });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<FileItem>();
    };
    const photo = await upload('photo.jpg', await makeJpeg(400, 300));
    const notes = await upload('notes.txt', Buffer.from('notes'));
    server.worker?.worker.poke();
    await waitUntil(async () => {
      const row = await server.ctx.db
        .selectFrom('files')
        .select('rendition_status')
        .where('id', '=', photo.fileId)
        .executeTakeFirst();
      return row?.rendition_status === 'ready';
    }, 'the renditions');
    // A tag, read marks (opening the collection and a file), an upload in progress, an archive.
    await server.ctx.db
      .insertInto('collection_tags')
      .values({
        collection_id: collection.id,
        user_id: users.viewer.id,
        team_id: team.id,
        updated_at: 1,
        position: 0,
      })
      .execute();
    expect((await admin.get(base)).statusCode).toBe(200);
    expect((await admin.get(`${base}/files/${photo.fileId}`)).statusCode).toBe(200);
    const created = await server.app.inject({
      method: 'POST',
      url: `/api${base}/uploads`,
      headers: {
        ...admin.headers,
        'tus-resumable': '1.0.0',
        'upload-length': '100',
        'upload-metadata': `filename ${Buffer.from('late.jpg').toString('base64')}`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const uploadId = String(created.headers.location).split('/').pop() ?? '';
    const tusFiles = async () =>
      (await readdir(server.config.uploadsDir)).filter((name) => name.startsWith(uploadId));
    expect(await tusFiles()).toHaveLength(2);
    const downloads = await downloadsClient(server, users.admin);
    const requested = await downloads.request(team.id, { collectionId: collection.id });
    server.worker?.worker.poke();
    expect((await downloads.settled(team.id, requested.requestId)).status).toBe('ready');
    const archive = await server.ctx.db
      .selectFrom('download_parts')
      .select('storage_key')
      .where('download_id', '=', requested.requestId)
      .executeTakeFirstOrThrow();
    const photoKeys = fileKeys({
      teamId: team.id,
      collectionId: collection.id,
      fileId: photo.fileId,
    });
    const notesKeys = fileKeys({
      teamId: team.id,
      collectionId: collection.id,
      fileId: notes.fileId,
    });
    const objects = [
      photoKeys.original,
      photoKeys.thumbnail,
      photoKeys.preview,
      notesKeys.original,
    ];
    if (archive.storage_key) objects.push(archive.storage_key);
    expect(archive.storage_key).not.toBeNull();
    expect(await storedObjects(root)).toEqual(expect.arrayContaining(objects));
    for (const table of [
      'files',
      'collection_tags',
      'collection_reads',
      'uploads',
      'downloads',
    ] as const)
      expect(await count(table, collection.id), table).toBeGreaterThan(0);

    // Someone else's collection and every other object stay as they are.
    const others = (await storedObjects(root)).filter((key) => !objects.includes(key));
    expect(others.length).toBeGreaterThan(0);

    const res = await admin.delete(base);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await admin.get(base)).statusCode).toBe(404);
    expect((await admin.get(`${base}/files/${photo.fileId}`)).statusCode).toBe(404);
    for (const table of [
      'files',
      'collection_tags',
      'collection_reads',
      'uploads',
      'downloads',
    ] as const)
      expect(await count(table, collection.id), table).toBe(0);
    const listed = await admin.get(`/teams/${team.id}/collections`);
    expect(
      listed
        .json<{ collections: { collectionId: string }[] }>()
        .collections.map((c) => c.collectionId),
    ).not.toContain(collection.id);
    // So is what the tus store kept of the upload in progress.
    expect(await tusFiles()).toEqual([]);
    // The download's links are gone with it.
    expect((await downloads.link(team.id, requested.requestId)).statusCode).toBe(404);

    // The archive goes at once; the files' objects stay with them in the trash.
    const fileObjects = objects.filter((key) => key !== archive.storage_key);
    server.worker?.worker.poke();
    await waitUntil(async () => {
      const left = await server.ctx.db.selectFrom('storage_deletions').select('key').execute();
      return left.length === 0 && !(await storedObjects(root)).includes(archive.storage_key ?? '');
    }, 'the archive to go');
    expect(await storedObjects(root)).toEqual(expect.arrayContaining(fileObjects));
    const trash = await admin.get(`/teams/${team.id}/trash`);
    expect(trash.statusCode, trash.body).toBe(200);
    expect(
      trash.json<{ items: { itemId: string; kind: string; fileCount: number }[] }>().items,
    ).toEqual([
      expect.objectContaining({ itemId: collection.id, kind: 'collection', fileCount: 2 }),
    ]);

    const emptied = await server.app.inject({
      method: 'DELETE',
      url: `/api/teams/${team.id}/trash`,
      headers: admin.headers,
    });
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(emptied.json<{ files: number }>().files).toBe(2);
    server.worker?.worker.poke();
    await waitUntil(async () => {
      const stored = await storedObjects(root);
      return !objects.some((key) => stored.includes(key));
    }, 'the objects to go');
    await waitUntil(async () => {
      const left = await server.ctx.db.selectFrom('storage_deletions').select('key').execute();
      return left.length === 0;
    }, 'the queue to empty');
    expect(await storedObjects(root)).toEqual(expect.arrayContaining(others));
    expect((await admin.delete(base)).statusCode).toBe(404);
  });

  it('discards the bytes of an upload whose last chunk arrives while its collection is being deleted', async () => {
    const { team, users } = world;
    const collection = await createCollection(server.ctx, {
      teamId: team.id,
      createdBy: users.admin.id,
      mode: 'collaborative',
      name: 'Going while uploading',
    });
    const tus = await tusClient(server, users.admin);
    const data = Buffer.alloc(2048, 7);
    const created = await tus.create(team.id, collection.id, { length: data.length });
    expect(created.statusCode, created.body).toBe(201);
    const url = String(created.headers.location);
    expect((await tus.patch(url, 0, data.subarray(0, 1024))).statusCode).toBe(204);
    const uploadId = url.split('/').pop() ?? '';
    const keys = fileKeys({ teamId: team.id, collectionId: collection.id, fileId: uploadId });

    // The deletion holds its transaction open while the last chunk arrives. On PostgreSQL that
    // request gets as far as its commit and waits there on the deleted upload row; on SQLite,
    // where transactions take turns, it waits before it starts.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let deleting!: Promise<void>;
    const locked = new Promise<void>((entered) => {
      deleting = server.ctx.db.transaction().execute(async (trx) => {
        await lockCollection(trx, server.config.database.kind, team.id, collection.id);
        await queueCollectionObjects(trx, collection.id, Date.now());
        expect(await deleteCollectionRow(trx, team.id, collection.id)).toBe(true);
        entered();
        await gate;
      });
    });
    await locked;
    const last = tus.patch(url, 1024, data.subarray(1024));
    if (server.config.database.kind === 'postgres') {
      await waitUntil(async () => {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock'
        `.execute(server.ctx.db);
        return (rows[0]?.n ?? 0) > 0;
      }, 'the last chunk to wait on the deletion');
    } else {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    release();
    await deleting;
    const answer = await last;
    expect(answer.statusCode, answer.body).toBe(404);
    expect(answer.json<{ errorCode: string }>().errorCode).toBe('notFound');
    expect(
      await server.ctx.db
        .selectFrom('files')
        .select('id')
        .where('id', '=', uploadId)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect(await storedObjects(root)).not.toContain(keys.original);
  });

  it('deletes queued objects idempotently: a missing object or a second run fails nothing', async () => {
    const keys = fileKeys({
      teamId: world.team.id,
      collectionId: world.collections.shared.id,
      fileId: world.files.shared.id,
    });
    await server.ctx.db
      .insertInto('storage_deletions')
      .values([
        { key: keys.thumbnail, queued_at: 1 },
        { key: 'teams/none/collections/none/none/original', queued_at: 1 },
      ])
      .execute();
    const run = deleteQueuedObjectsJob.prepare({});
    const job = {
      id: 'manual',
      queue: deleteQueuedObjectsJob.queue,
      attempt: 1,
      maxAttempts: 5,
      createdAt: 0,
      signal: new AbortController().signal,
    };
    const deps = { db: server.ctx.db, storage: server.ctx.storage };
    await run(deps, job);
    await run(deps, job);
    const stored = await storedObjects(root);
    expect(stored).not.toContain(keys.thumbnail);
    expect(stored).toContain(keys.original);
    expect(await server.ctx.db.selectFrom('storage_deletions').selectAll().execute()).toEqual([]);
  });
});
