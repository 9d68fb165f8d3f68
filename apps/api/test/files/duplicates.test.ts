import { randomBytes } from 'node:crypto';
import type { DuplicatesResponse, FileLookupResponse } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDuplicateFiles } from '../../src/files/files.repository.js';
import { withGps } from '../../src/files/strip-location.fixture.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { accessToken } from '../members/world.js';
import { tusClient } from '../uploads/tus-client.js';
import { startUploadServer, type UploadServer } from '../uploads/tus-world.js';
import { filesClient, nextAddress } from './files-api.js';
import { buildFilesWorld, createStoredFile, sha256, type FilesWorld } from './files-world.js';

/**
 * Duplicates caught before upload: the digest a client declares in the tus metadata is checked
 * and recorded as `received_sha256`; the lookup answers which digests a collection holds, to
 * those who may upload into it; the duplicates list groups a collection's files by it.
 */
describe('duplicate lookup and the declared SHA-256', () => {
  let server: UploadServer;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startUploadServer('local');
    world = await buildFilesWorld(server.ctx, { objects: false });
  });
  afterAll(() => server.close());

  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  const idOf = (url: string) => url.split('/').pop() ?? '';
  const lookupUrl = (collectionId: string, teamId = world.team.id) =>
    `/api/teams/${teamId}/collections/${collectionId}/files/lookup`;

  async function lookup(user: UserRow | null, collectionId: string, body: unknown) {
    return server.app.inject({
      method: 'POST',
      url: lookupUrl(collectionId),
      headers: user ? { authorization: `Bearer ${await accessToken(server.ctx, user)}` } : {},
      remoteAddress: nextAddress(),
      payload: body as object,
    });
  }

  /** A tus upload declaring `declared` as the whole file's SHA-256. */
  async function uploadDeclaring(
    user: UserRow,
    collectionId: string,
    data: Buffer,
    declared: string,
  ) {
    const tus = await tusClient(server, user);
    const created = await tus.create(world.team.id, collectionId, {
      length: data.length,
      filename: 'declared.bin',
      sha256: declared,
    });
    if (created.statusCode !== 201) return { created, url: '', last: created };
    const url = String(created.headers.location);
    const last = await tus.patch(url, 0, data);
    return { created, url, last };
  }

  it('records the declared digest with the file, and the lookup finds it', async () => {
    const shared = world.collections.shared;
    const data = randomBytes(70_000);
    const { url, last } = await uploadDeclaring(
      world.users.uploader,
      shared.id,
      data,
      sha256(data).toUpperCase(),
    );
    expect(last.statusCode, last.body).toBe(204);
    const row = await fileRow(idOf(url));
    expect(row).toMatchObject({ sha256: sha256(data), received_sha256: sha256(data) });

    const other = sha256(randomBytes(10));
    const res = await lookup(world.users.admin, shared.id, { sha256: [other, sha256(data)] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<FileLookupResponse>()).toEqual({
      found: [
        {
          sha256: sha256(data),
          fileId: idOf(url),
          name: 'declared.bin',
          createdAt: new Date(row?.created_at ?? 0).toISOString(),
        },
      ],
    });
    // Another collection of the team does not hold it.
    const elsewhere = await lookup(world.users.uploader, world.collections.uploaders.id, {
      sha256: [sha256(data)],
    });
    expect(elsewhere.json<FileLookupResponse>()).toEqual({ found: [] });
  });

  it('refuses an upload whose bytes differ from the declared digest, keeping nothing', async () => {
    const shared = world.collections.shared;
    const data = randomBytes(50_000);
    const declared = sha256(Buffer.from('something else'));
    const { url, last } = await uploadDeclaring(world.users.uploader, shared.id, data, declared);
    expect(last.statusCode).toBe(460);
    expect(last.json()).toMatchObject({ errorCode: 'checksumMismatch' });
    expect(await fileRow(idOf(url))).toBeUndefined();
    expect(await server.tusLeftovers()).toEqual([]);
    const found = await lookup(world.users.admin, shared.id, { sha256: [declared, sha256(data)] });
    expect(found.json<FileLookupResponse>()).toEqual({ found: [] });
  });

  it('refuses a malformed declared digest when the upload is created', async () => {
    for (const declared of ['abc', 'z'.repeat(64), `${'a'.repeat(64)}0`]) {
      const { created } = await uploadDeclaring(
        world.users.uploader,
        world.collections.shared.id,
        Buffer.from('x'),
        declared,
      );
      expect(created.statusCode, declared).toBe(400);
      expect(created.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
    const uploads = await server.ctx.db
      .selectFrom('uploads')
      .select('id')
      .where('file_name', '=', 'declared.bin')
      .where('status', '=', 'uploading')
      .execute();
    expect(uploads).toEqual([]);
  });

  it('matches the bytes as uploaded when the stored ones lost their location', async () => {
    const owner = await filesClient(server, world.users.owner);
    const patched = await server.app.inject({
      method: 'PATCH',
      url: `/api/teams/${world.team.id}`,
      headers: owner.headers,
      remoteAddress: nextAddress(),
      payload: [{ op: 'replace', path: '/stripLocation', value: true }],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    try {
      const photo = await withGps('jpeg', 64);
      const collection = world.collections.uploaders;
      const { url, last } = await uploadDeclaring(
        world.users.uploader,
        collection.id,
        photo,
        sha256(photo),
      );
      expect(last.statusCode, last.body).toBe(204);
      const row = await fileRow(idOf(url));
      expect(row?.received_sha256).toBe(sha256(photo));
      expect(row?.sha256).not.toBe(sha256(photo));
      // A multipart upload of the same photo records what arrived as well.
      const res = await owner.upload(world.team.id, collection.id, {
        filename: 'again.jpg',
        data: photo,
      });
      expect(res.statusCode, res.body).toBe(201);
      const again = await fileRow(res.json<{ fileId: string }>().fileId);
      expect(again?.received_sha256).toBe(sha256(photo));

      const found = await lookup(world.users.uploader, collection.id, { sha256: [sha256(photo)] });
      expect(found.json<FileLookupResponse>().found).toEqual([
        expect.objectContaining({ sha256: sha256(photo), fileId: idOf(url) }),
      ]);
    } finally {
      await server.app.inject({
        method: 'PATCH',
        url: `/api/teams/${world.team.id}`,
        headers: owner.headers,
        remoteAddress: nextAddress(),
        payload: [{ op: 'replace', path: '/stripLocation', value: false }],
      });
    }
  });

  it('answers the lookup only to those who may upload into the collection', async () => {
    const digest = [world.files.owned.sha256];
    const owned = world.collections.owned.id;
    expect((await lookup(null, owned, { sha256: digest })).statusCode).toBe(401);
    const viewer = await lookup(world.users.viewer, owned, { sha256: digest });
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toMatchObject({ errorCode: 'forbidden' });
    // The owner's private collection: an uploader does not see it at all.
    const uploader = await lookup(world.users.uploader, owned, { sha256: digest });
    expect(uploader.statusCode).toBe(404);
    expect(uploader.json()).toMatchObject({ errorCode: 'notFound' });
    const foreigner = await lookup(world.users.foreigner, owned, { sha256: digest });
    expect(foreigner.statusCode).toBe(404);
    const foreign = await server.app.inject({
      method: 'POST',
      url: lookupUrl(world.collections.foreign.id),
      headers: { authorization: `Bearer ${await accessToken(server.ctx, world.users.owner)}` },
      remoteAddress: nextAddress(),
      payload: { sha256: [world.files.foreign.sha256] },
    });
    expect(foreign.statusCode).toBe(404);
    const owner = await lookup(world.users.owner, owned, { sha256: digest });
    expect(owner.json<FileLookupResponse>().found.map((f) => f.fileId)).toEqual([
      world.files.owned.id,
    ]);
  });

  it('refuses malformed lookups with invalidInput', async () => {
    const good = 'a'.repeat(64);
    const bodies: unknown[] = [
      {},
      { sha256: [] },
      { sha256: good },
      { sha256: ['A'.repeat(64)] },
      { sha256: ['a'.repeat(63)] },
      { sha256: ['g'.repeat(64)] },
      { sha256: [123] },
      { sha256: Array.from({ length: 101 }, () => good) },
      { sha256: [good], extra: true },
      [good],
    ];
    for (const body of bodies) {
      const res = await lookup(world.users.owner, world.collections.shared.id, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
    const hundred = await lookup(world.users.owner, world.collections.shared.id, {
      sha256: Array.from({ length: 100 }, () => good),
    });
    expect(hundred.statusCode).toBe(200);
  });

  it('says when there are more groups than one answer lists', async () => {
    const collection = world.collections.shared;
    for (let i = 0; i < 2; i++) {
      const data = randomBytes(32);
      for (let copy = 0; copy < 2; copy++)
        await createStoredFile(server.ctx, { collection, uploadedBy: world.users.owner.id, data });
    }
    const all = await listDuplicateFiles(server.ctx.db, collection.id, 1000);
    expect(all.more).toBe(false);
    const total = all.groups.length;
    expect(total).toBeGreaterThanOrEqual(2);
    const capped = await listDuplicateFiles(server.ctx.db, collection.id, total - 1);
    expect(capped.more).toBe(true);
    expect(capped.groups.map((g) => g.sha256)).toEqual(
      all.groups.slice(0, total - 1).map((g) => g.sha256),
    );
    expect((await listDuplicateFiles(server.ctx.db, collection.id, total)).more).toBe(false);
  });

  it('lists duplicates oldest first, and deleting the extras empties the list', async () => {
    const collection = world.collections.uploaders;
    const base = server.ctx.clock();
    const same = Buffer.from('the same bytes twice\n');
    const kept = await createStoredFile(server.ctx, {
      collection,
      uploadedBy: world.users.uploader.id,
      data: same,
      at: base - 3000,
    });
    const extra = await createStoredFile(server.ctx, {
      collection,
      uploadedBy: world.users.owner.id,
      data: same,
      at: base - 1000,
    });
    const lone = await createStoredFile(server.ctx, {
      collection,
      uploadedBy: world.users.owner.id,
      data: Buffer.from('only once\n'),
    });
    // The same bytes in another collection are not a duplicate here.
    await createStoredFile(server.ctx, {
      collection: world.collections.shared,
      uploadedBy: world.users.owner.id,
      data: same,
    });
    const url = `/teams/${world.team.id}/collections/${collection.id}/files/duplicates`;
    const uploader = await filesClient(server, world.users.uploader);
    const listed = await uploader.get(url);
    expect(listed.statusCode, listed.body).toBe(200);
    const body = listed.json<DuplicatesResponse>();
    expect(body.more).toBe(false);
    const group = body.groups.find((g) => g.sha256 === sha256(same));
    expect(group?.files.map((f) => f.fileId)).toEqual([kept.id, extra.id]);
    expect(body.groups.flatMap((g) => g.files).map((f) => f.fileId)).not.toContain(lone.id);

    const viewer = await filesClient(server, world.users.viewer);
    expect((await viewer.get(url)).statusCode).toBe(200);
    expect(
      (
        await uploader.delete(
          `/teams/${world.team.id}/collections/${collection.id}/files/${extra.id}`,
        )
      ).statusCode,
    ).toBe(403);
    const owner = await filesClient(server, world.users.owner);
    const deleted = await owner.delete(
      `/teams/${world.team.id}/collections/${collection.id}/files/${extra.id}`,
    );
    expect(deleted.statusCode).toBe(204);
    const after = (await owner.get(url)).json<DuplicatesResponse>();
    expect(after.groups.find((g) => g.sha256 === sha256(same))).toBeUndefined();
  });
});
