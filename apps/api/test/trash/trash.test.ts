import { randomBytes } from 'node:crypto';
import type { TrashListResponse } from '@raccolta/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpiredTrash } from '../../src/trash/trash.service.js';
import { createCollection } from '../files/files-world.js';
import { filesClient, nextAddress, type FilesClient } from '../files/files-api.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken, buildWorld, CALLERS, type Caller, type World } from '../members/world.js';

const TEAM_MAX_BYTES = 300_000;
let server: TestServer;
let world: World;
let admin: FilesClient;

beforeAll(async () => {
  server = await startTestServer({ UPLOAD_TEAM_MAX_BYTES: String(TEAM_MAX_BYTES) });
  world = await buildWorld(server.ctx);
  admin = await filesClient(server, world.users.admin);
});

afterAll(async () => {
  await server.close();
});

async function call(
  caller: Caller,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  payload?: object,
) {
  const headers: Record<string, string> =
    caller === 'anonymous'
      ? {}
      : { authorization: `Bearer ${await accessToken(server.ctx, world.users[caller])}` };
  return server.app.inject({
    method,
    url: `/api/teams/${world.team.id}/trash${path}`,
    headers,
    remoteAddress: nextAddress(),
    ...(payload ? { payload } : {}),
  });
}

async function collectionWith(name: string, sizes: number[]) {
  const collection = await createCollection(server.ctx, {
    teamId: world.team.id,
    createdBy: world.users.admin.id,
    mode: 'collaborative',
    name,
  });
  const fileIds: string[] = [];
  for (const [i, size] of sizes.entries()) {
    const res = await admin.upload(world.team.id, collection.id, {
      filename: `${name}-${i}.bin`,
      data: randomBytes(size),
    });
    expect(res.statusCode, res.body).toBe(201);
    fileIds.push(res.json<{ fileId: string }>().fileId);
  }
  return { collection, fileIds, url: `/teams/${world.team.id}/collections/${collection.id}` };
}

async function trash(): Promise<TrashListResponse> {
  const res = await call('owner', 'GET', '');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TrashListResponse>();
}

async function emptyAll() {
  expect((await call('owner', 'DELETE', '')).statusCode).toBe(200);
}

describe('who may use the trash (spec §6: whoever may delete files and collections)', () => {
  // Hand-typed from spec §6 ("delete collection, file": owner and admin), not computed.
  const expected: Record<Caller, number> = {
    anonymous: 401,
    owner: 200,
    admin: 200,
    uploader: 403,
    viewer: 403,
    disabled: 404,
    outsider: 404,
    foreigner: 404,
  };
  it.each(CALLERS)('%s', async (caller) => {
    const { fileIds, url } = await collectionWith(`matrix-${caller}`, [10]);
    const fileId = fileIds[0] ?? '';
    expect((await admin.delete(`${url}/files/${fileId}`)).statusCode).toBe(204);

    expect((await call(caller, 'GET', '')).statusCode).toBe(expected[caller]);
    const restore = await call(caller, 'POST', '/restore', { itemIds: [fileId] });
    expect(restore.statusCode).toBe(expected[caller]);
    // Refused callers changed nothing: the item is still there to purge.
    if (expected[caller] !== 200) {
      const purge = await call(caller, 'POST', '/purge', { itemIds: [fileId] });
      expect(purge.statusCode).toBe(expected[caller]);
      expect((await call(caller, 'DELETE', '')).statusCode).toBe(expected[caller]);
      expect((await trash()).items.map((i) => i.itemId)).toContain(fileId);
    }
    await emptyAll();
  });
});

describe('restoring', () => {
  it('brings a collection back with its files and tags, and a file with its collection', async () => {
    const { collection, fileIds, url } = await collectionWith('whole', [100, 200, 300]);
    const [single, ...rest] = fileIds as [string, string, string];
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
    // One file deleted first, then the whole collection.
    expect((await admin.delete(`${url}/files/${single}`)).statusCode).toBe(204);
    expect((await admin.delete(url)).statusCode).toBe(204);
    const listed = await trash();
    expect(listed.items.map((i) => [i.kind, i.itemId])).toEqual([
      ['collection', collection.id],
      ['file', single],
    ]);
    expect(listed.items[0]).toMatchObject({
      name: 'whole',
      fileCount: 2,
      size: 500,
      deletedBy: { userId: world.users.admin.id },
    });
    expect(listed.totals).toEqual({ items: 2, bytes: 600 });
    expect(listed.trashDays).toBe(30);
    const purgeAt = new Date(listed.items[0]?.purgeAt ?? 0).getTime();
    const deletedAt = new Date(listed.items[0]?.deletedAt ?? 0).getTime();
    expect(purgeAt - deletedAt).toBe(30 * 24 * 3600 * 1000);

    // The single file asks for its collection, which comes back with what was deleted with it.
    const res = await call('admin', 'POST', '/restore', { itemIds: [single] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ files: 3, collections: 1 });
    const files = await admin.listAll(`${url}/files`);
    expect(files.map((f) => f.fileId).sort()).toEqual([single, ...rest].sort());
    const got = await admin.get(url);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ name: 'whole', filesCount: 3, status: 'ready' });
    const tags = await server.ctx.db
      .selectFrom('collection_tags')
      .select('user_id')
      .where('collection_id', '=', collection.id)
      .execute();
    expect(tags).toEqual([{ user_id: world.users.viewer.id }]);
    expect((await trash()).items).toEqual([]);
  });

  it('refuses bad selections with the spec errors and changes nothing', async () => {
    const { fileIds, url } = await collectionWith('bad', [10]);
    const fileId = fileIds[0] ?? '';
    expect((await admin.delete(`${url}/files/${fileId}`)).statusCode).toBe(204);
    const tooMany = Array.from({ length: 101 }, () => fileId);
    for (const action of ['/restore', '/purge'])
      for (const body of [{ itemIds: [] }, { itemIds: ['nope'] }, {}, { itemIds: tooMany }]) {
        const res = await call('owner', 'POST', action, body);
        expect(res.statusCode, `${action} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
        expect(res.json<{ errorCode: string }>().errorCode).toBe('invalidInput');
      }
    const unknown = await call('owner', 'POST', '/restore', {
      itemIds: [fileId, '00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<{ errorCode: string }>().errorCode).toBe('notFound');
    expect((await trash()).items.map((i) => i.itemId)).toEqual([fileId]);
    await emptyAll();
  });

  it("answers 404 for another team's items and leaves them in that team's trash", async () => {
    const foreign = await createCollection(server.ctx, {
      teamId: world.otherTeam.id,
      createdBy: world.users.foreigner.id,
      mode: 'collaborative',
      name: 'Theirs',
    });
    const foreigner = await filesClient(server, world.users.foreigner);
    const foreignUrl = `/teams/${world.otherTeam.id}/collections/${foreign.id}`;
    expect((await foreigner.delete(foreignUrl)).statusCode).toBe(204);
    for (const action of ['/restore', '/purge']) {
      const res = await call('owner', 'POST', action, { itemIds: [foreign.id] });
      expect(res.statusCode, action).toBe(404);
      expect(res.json<{ errorCode: string }>().errorCode).toBe('notFound');
    }
    expect((await trash()).items.map((i) => i.itemId)).not.toContain(foreign.id);
    const theirs = await server.app.inject({
      method: 'GET',
      url: `/api/teams/${world.otherTeam.id}/trash`,
      headers: foreigner.headers,
    });
    expect(theirs.json<TrashListResponse>().items.map((i) => i.itemId)).toEqual([foreign.id]);
    const emptied = await server.app.inject({
      method: 'DELETE',
      url: `/api/teams/${world.otherTeam.id}/trash`,
      headers: foreigner.headers,
    });
    expect(emptied.statusCode).toBe(200);
  });

  it('pages a long trash, newest first', async () => {
    const { fileIds, url } = await collectionWith(
      'many',
      Array.from({ length: 23 }, () => 1),
    );
    for (const id of fileIds)
      expect((await admin.delete(`${url}/files/${id}`)).statusCode).toBe(204);
    const first = await trash();
    expect(first.items).toHaveLength(20);
    expect(first.totals.items).toBe(23);
    const next = await call('owner', 'GET', `?lastKey=${first.pagination.lastKey ?? ''}`);
    const second = next.json<TrashListResponse>();
    expect(second.items).toHaveLength(3);
    expect(second.pagination.lastKey).toBeNull();
    expect(new Set([...first.items, ...second.items].map((i) => i.itemId))).toEqual(
      new Set(fileIds),
    );
    await emptyAll();
  });
});

describe('purging', () => {
  it('keeps counting trashed bytes toward the storage quota until the trash is emptied', async () => {
    const { fileIds, url } = await collectionWith('quota', [200_000]);
    expect((await admin.delete(`${url}/files/${fileIds[0] ?? ''}`)).statusCode).toBe(204);
    const { collection } = await collectionWith('quota-2', []);
    const refused = await admin.upload(world.team.id, collection.id, {
      filename: 'big.bin',
      data: randomBytes(200_000),
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json<{ errorCode: string }>().errorCode).toBe('quotaExceededStorage');
    await emptyAll();
    const accepted = await admin.upload(world.team.id, collection.id, {
      filename: 'big.bin',
      data: randomBytes(200_000),
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(
      (await admin.delete(`/teams/${world.team.id}/collections/${collection.id}`)).statusCode,
    ).toBe(204);
    await emptyAll();
  });

  it('purges what is older than TRASH_DAYS, with its objects, and keeps the rest', async () => {
    const { fileIds, url, collection } = await collectionWith('old', [10, 20]);
    expect((await admin.delete(`${url}/files/${fileIds[0] ?? ''}`)).statusCode).toBe(204);
    expect((await admin.delete(url)).statusCode).toBe(204);
    const queuedBefore = await server.ctx.db
      .selectFrom('storage_deletions')
      .select('key')
      .execute();

    // 29 days on: nothing yet.
    const day = 24 * 3600 * 1000;
    expect(
      await purgeExpiredTrash({
        db: server.ctx.db,
        clock: () => Date.now() + 29 * day,
        trashDays: 30,
      }),
    ).toBe(0);
    expect((await trash()).totals.items).toBe(2);
    // 31 days on: the collection and the file deleted from it before, and their objects queued.
    expect(
      await purgeExpiredTrash({
        db: server.ctx.db,
        clock: () => Date.now() + 31 * day,
        trashDays: 30,
      }),
    ).toBe(2);
    expect((await trash()).totals).toEqual({ items: 0, bytes: 0 });
    const queued = (await server.ctx.db.selectFrom('storage_deletions').select('key').execute())
      .map((r) => r.key)
      .filter((key) => !queuedBefore.some((b) => b.key === key));
    for (const id of fileIds)
      expect(queued).toContain(
        `teams/${world.team.id}/collections/${collection.id}/${id}/original`,
      );
  });
});

describe('a purge racing a restore', () => {
  it('never queues the objects of an item a restore took first', async () => {
    const { fileIds, url } = await collectionWith('race', [10]);
    const fileId = fileIds[0] ?? '';
    expect((await admin.delete(`${url}/files/${fileId}`)).statusCode).toBe(204);
    const config = server.config.database;
    if (config.kind === 'postgres') {
      // Another transaction takes the trash row first, as a restore does, and holds it while the
      // purge reads the row and waits to delete it.
      const other = new pg.Client({ connectionString: config.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('delete from trash where id = $1', [fileId]);
        const purge = call('owner', 'POST', '/purge', { itemIds: [fileId] });
        await new Promise((resolve) => setTimeout(resolve, 300));
        await other.query('commit');
        const res = await purge;
        expect(res.statusCode, res.body).toBe(404);
      } finally {
        await other.end();
      }
    } else {
      // SQLite has one writer: the restore simply comes first.
      expect((await call('owner', 'POST', '/restore', { itemIds: [fileId] })).statusCode).toBe(200);
      expect((await call('owner', 'POST', '/purge', { itemIds: [fileId] })).statusCode).toBe(404);
    }
    const queued = await server.ctx.db
      .selectFrom('storage_deletions')
      .select('key')
      .where('key', 'like', `%${fileId}%`)
      .execute();
    expect(queued).toEqual([]);
  });
});
