import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRun } from '../../src/jobs/types.js';
import { expireUploadsJob } from '../../src/uploads/expire-uploads.job.js';
import { uploadBackendFor } from '../../src/uploads/backend-cache.js';
import { buildFilesWorld, sha256, type FilesWorld } from '../files/files-world.js';
import { makePng } from '../files/images.js';
import { tusClient } from './tus-client.js';
import { STORAGE_KINDS, startUploadServer, type UploadServer } from './tus-world.js';

const MAX_FILE = 64 * 1024;
const TEAM_MAX = 200 * 1024;
const HOUR = 60 * 60_000;

describe.each(STORAGE_KINDS)('who may upload, limits and expiry on %s storage', (kind) => {
  let server: UploadServer;
  let world: FilesWorld;
  let now = Date.now();

  beforeAll(async () => {
    server = await startUploadServer(
      kind,
      {
        UPLOAD_MAX_FILE_BYTES: String(MAX_FILE),
        UPLOAD_TEAM_MAX_BYTES: String(TEAM_MAX),
        UPLOAD_ALLOWED_TYPES: 'image/*,application/octet-stream',
        UPLOAD_EXPIRY_HOURS: '1',
      },
      { clock: () => now },
    );
    world = await buildFilesWorld(server.ctx, { objects: false });
  });
  afterAll(() => server.close());

  const idOf = (url: string) => url.split('/').pop() ?? '';
  const uploadRows = () => server.ctx.db.selectFrom('uploads').selectAll().execute();
  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  const runExpiry = () =>
    expireUploadsJob.prepare({})(
      { config: server.config, db: server.ctx.db, storage: server.ctx.storage, clock: () => now },
      {} as JobRun,
    );

  it('asks for a signed-in member allowed by spec §6 on creation', async () => {
    const own = world.collections.uploaders;
    const ownerOnly = world.collections.owned;
    const cases: [string, Awaited<ReturnType<typeof tusClient>>, string, number, string][] = [
      ['anonymous', await tusClient(server, null), own.id, 401, 'authorizationRequired'],
      ['viewer', await tusClient(server, world.users.viewer), own.id, 403, 'forbidden'],
      ['disabled member', await tusClient(server, world.users.disabled), own.id, 404, 'notFound'],
      ['outsider', await tusClient(server, world.users.outsider), own.id, 404, 'notFound'],
      ['foreigner', await tusClient(server, world.users.foreigner), own.id, 404, 'notFound'],
      // An uploader cannot see an owner's owned collection, let alone add to it.
      ['uploader', await tusClient(server, world.users.uploader), ownerOnly.id, 404, 'notFound'],
    ];
    for (const [who, tus, collectionId, status, errorCode] of cases) {
      const res = await tus.create(world.team.id, collectionId, { length: 10, filename: 'a' });
      expect(res.statusCode, who).toBe(status);
      expect(res.json(), who).toMatchObject({ errorCode });
    }
    // The foreign team's id with our collection: 404 as well.
    const foreign = await tusClient(server, world.users.foreigner);
    const res = await foreign.create(world.otherTeam.id, own.id, { length: 10, filename: 'a' });
    expect(res.statusCode).toBe(404);
    expect(await uploadRows()).toEqual([]);
  });

  it('refuses every tus request on an upload of another member or team', async () => {
    const uploader = await tusClient(server, world.users.uploader);
    const own = world.collections.uploaders;
    const created = await uploader.create(world.team.id, own.id, {
      length: 1000,
      filename: 'mine.bin',
    });
    const url = String(created.headers.location);
    await uploader.patch(url, 0, randomBytes(100));
    for (const user of [world.users.owner, world.users.admin, world.users.foreigner]) {
      const other = await tusClient(server, user);
      // HEAD answers have no body.
      expect((await other.head(url)).statusCode).toBe(404);
      for (const res of [await other.patch(url, 100, randomBytes(100)), await other.delete(url)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ errorCode: 'notFound' });
      }
    }
    const anonymous = await tusClient(server, null);
    expect((await anonymous.head(url)).statusCode).toBe(401);
    // The upload's id under another collection of the same team: not found either.
    const elsewhere = url.replace(own.id, world.collections.shared.id);
    expect((await uploader.head(elsewhere)).statusCode).toBe(404);
    expect((await uploader.head(url)).headers['upload-offset']).toBe('100');
    expect((await uploader.delete(url)).statusCode).toBe(204);
  });

  it('refuses sizes over the limits before storing a byte', async () => {
    const admin = await tusClient(server, world.users.admin);
    const shared = world.collections.shared;
    const tooBig = await admin.create(world.team.id, shared.id, {
      length: MAX_FILE + 1,
      filename: 'big.bin',
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ errorCode: 'fileTooLarge' });
    const deferred = await admin.create(world.team.id, shared.id, {
      filename: 'unknown.bin',
      headers: { 'upload-defer-length': '1' },
    });
    expect(deferred.statusCode).toBe(400);
    expect(deferred.json()).toMatchObject({ errorCode: 'invalidInput' });
    const notANumber = await admin.create(world.team.id, shared.id, { length: '12abc' });
    expect(notANumber.statusCode).toBe(400);
    expect(await uploadRows()).toEqual([]);
    expect(await server.tusLeftovers()).toEqual([]);
  });

  it("counts uploads in progress against the team's limit", async () => {
    const admin = await tusClient(server, world.users.admin);
    const shared = world.collections.shared;
    const urls: string[] = [];
    // Three uploads of 60 KiB fit in 200 KiB; a fourth does not, until one is abandoned.
    for (let i = 0; i < 3; i++) {
      const res = await admin.create(world.team.id, shared.id, { length: 60 * 1024 });
      expect(res.statusCode).toBe(201);
      urls.push(String(res.headers.location));
    }
    const fourth = await admin.create(world.team.id, shared.id, { length: 60 * 1024 });
    expect(fourth.statusCode).toBe(413);
    expect(fourth.json()).toMatchObject({ errorCode: 'quotaExceededStorage' });
    for (const url of urls) expect((await admin.delete(url)).statusCode).toBe(204);
    expect(await uploadRows()).toEqual([]);
    expect((await admin.create(world.team.id, shared.id, { length: 60 * 1024 })).statusCode).toBe(
      201,
    );
    const [left] = await uploadRows();
    await admin.delete(`/api/teams/${world.team.id}/collections/${shared.id}/uploads/${left?.id}`);
    expect(await uploadRows()).toEqual([]);
  });

  it('refuses a type outside the configured list when the last byte arrives, and keeps nothing', async () => {
    const admin = await tusClient(server, world.users.admin);
    const shared = world.collections.shared;
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const { url, last } = await admin.upload(world.team.id, shared.id, html, {
      filename: 'page.png',
    });
    expect(last.statusCode).toBe(415);
    expect(last.json()).toMatchObject({ errorCode: 'fileTypeNotAllowed' });
    expect(await fileRow(idOf(url))).toBeUndefined();
    expect(await uploadRows()).toEqual([]);
    expect(await server.tusLeftovers()).toEqual([]);
  });

  it('stops a member disabled during an upload', async () => {
    const uploader = await tusClient(server, world.users.uploader);
    const own = world.collections.uploaders;
    const created = await uploader.create(world.team.id, own.id, { length: 2000, filename: 'x' });
    const url = String(created.headers.location);
    await uploader.patch(url, 0, randomBytes(1000));
    const member = { team_id: world.team.id, user_id: world.users.uploader.id };
    await server.ctx.db
      .updateTable('team_members')
      .set({ status: 'disabled' })
      .where('team_id', '=', member.team_id)
      .where('user_id', '=', member.user_id)
      .execute();
    try {
      const res = await uploader.patch(url, 1000, randomBytes(1000));
      expect(res.statusCode).toBe(404);
      expect(await fileRow(idOf(url))).toBeUndefined();
    } finally {
      await server.ctx.db
        .updateTable('team_members')
        .set({ status: 'active' })
        .where('team_id', '=', member.team_id)
        .where('user_id', '=', member.user_id)
        .execute();
    }
    expect((await uploader.delete(url)).statusCode).toBe(204);
  });

  it('commits on HEAD an upload whose bytes all arrived but whose commit never ran', async () => {
    const uploader = await tusClient(server, world.users.uploader);
    const own = world.collections.uploaders;
    const data = await makePng(20, 20);
    const created = await uploader.create(world.team.id, own.id, {
      length: data.length,
      filename: 'late.png',
    });
    const url = String(created.headers.location);
    // The bytes written straight into the tus store, as by a request whose process died
    // between the last byte and the commit.
    const backend = uploadBackendFor(server.config, server.ctx.storage);
    const { Readable } = await import('node:stream');
    await backend.store.inner.write(Readable.from([data]), backend.storeId(idOf(url)), 0);
    expect(await fileRow(idOf(url))).toBeUndefined();
    const head = await uploader.head(url);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(data.length));
    expect(await fileRow(idOf(url))).toMatchObject({ name: 'late.png', sha256: sha256(data) });
  });

  it('expires abandoned uploads, and commits complete ones instead of losing them', async () => {
    const uploader = await tusClient(server, world.users.uploader);
    const own = world.collections.uploaders;
    const abandoned = await uploader.create(world.team.id, own.id, { length: 5000, filename: 'a' });
    await uploader.patch(String(abandoned.headers.location), 0, randomBytes(2000));
    const data = await makePng(16, 16);
    const complete = await uploader.create(world.team.id, own.id, {
      length: data.length,
      filename: 'complete.png',
    });
    const backend = uploadBackendFor(server.config, server.ctx.storage);
    const { Readable } = await import('node:stream');
    const completeId = idOf(String(complete.headers.location));
    await backend.store.inner.write(Readable.from([data]), backend.storeId(completeId), 0);

    await runExpiry();
    expect((await uploadRows()).filter((r) => r.status === 'uploading')).toHaveLength(2);
    now += HOUR + 1;
    try {
      await runExpiry();
    } finally {
      now -= HOUR + 1;
    }
    expect(await uploadRows()).toEqual([]);
    expect(await fileRow(idOf(String(abandoned.headers.location)))).toBeUndefined();
    expect(await fileRow(completeId)).toMatchObject({ sha256: sha256(data) });
    expect(await server.tusLeftovers()).toEqual([]);
    const head = await uploader.head(String(abandoned.headers.location));
    expect(head.statusCode).toBe(404);
  });
});
