import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFileJob } from '../../src/files/renditions.job.js';
import { readAll } from '../../src/storage/testing/helpers.js';
import { buildFilesWorld, sha256, type FilesWorld } from '../files/files-world.js';
import { makePng } from '../files/images.js';
import { checksumHeader, tusClient } from './tus-client.js';
import { STORAGE_KINDS, startUploadServer, type UploadServer } from './tus-world.js';

describe.each(STORAGE_KINDS)('resumable uploads on %s storage', (kind) => {
  let server: UploadServer;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startUploadServer(kind);
    world = await buildFilesWorld(server.ctx, { objects: false });
  });
  afterAll(() => server.close());

  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
  const uploadRow = (id: string) =>
    server.ctx.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  const idOf = (url: string) => url.split('/').pop() ?? '';

  it('makes the file visible only once its last byte is committed, with its SHA-256', async () => {
    const tus = await tusClient(server, world.users.uploader);
    const collection = world.collections.uploaders;
    const data = await makePng(64, 48);
    const created = await tus.create(collection.team_id, collection.id, {
      length: data.length,
      filename: 'photo.png',
    });
    expect(created.statusCode).toBe(201);
    const url = String(created.headers.location);
    expect(url).toBe(
      `/api/teams/${collection.team_id}/collections/${collection.id}/uploads/${idOf(url)}`,
    );
    expect(created.headers['upload-expires']).toBeTruthy();

    const half = Math.floor(data.length / 2);
    const first = await tus.patch(url, 0, data.subarray(0, half));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe(String(half));
    expect(await fileRow(idOf(url))).toBeUndefined();
    const head = await tus.head(url);
    expect(head.statusCode).toBe(200);
    expect(head.headers['upload-offset']).toBe(String(half));
    expect(head.headers['upload-length']).toBe(String(data.length));
    expect(Date.parse(String(head.headers['upload-expires']))).toBeGreaterThan(Date.now());

    const last = await tus.patch(url, half, data.subarray(half));
    expect(last.statusCode).toBe(204);
    const file = await fileRow(idOf(url));
    expect(file).toMatchObject({
      name: 'photo.png',
      content_type: 'image/png',
      size: data.length,
      sha256: sha256(data),
      uploaded_by: world.users.uploader.id,
      rendition_status: 'pending',
    });
    expect(await readAll(await server.ctx.storage.get(file?.storage_key ?? ''))).toEqual(data);
    expect((await uploadRow(idOf(url)))?.status).toBe('completed');
    expect(await server.tusLeftovers()).toEqual([]);
    // A client that asks again (a retried last request) learns it is complete.
    const again = await tus.head(url);
    expect(again.headers['upload-offset']).toBe(String(data.length));
    const jobs = await server.ctx.db
      .selectFrom('jobs')
      .select('payload')
      .where('queue', '=', renderFileJob.queue)
      .execute();
    expect(jobs.some((j) => j.payload.includes(idOf(url)))).toBe(true);
  });

  it('accepts the whole file in the creation request', async () => {
    const tus = await tusClient(server, world.users.admin);
    const collection = world.collections.shared;
    const data = Buffer.from('plain text, all at once\n');
    const created = await tus.create(collection.team_id, collection.id, {
      length: data.length,
      filename: 'note.txt',
      body: data,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['upload-offset']).toBe(String(data.length));
    // A file now: nothing of it expires.
    expect(created.headers['upload-expires']).toBeUndefined();
    const file = await fileRow(idOf(String(created.headers.location)));
    expect(file).toMatchObject({ name: 'note.txt', size: data.length, sha256: sha256(data) });
    expect(await server.tusLeftovers()).toEqual([]);
  });

  it('keeps the first part sent in the creation request, and says when the rest is due', async () => {
    const tus = await tusClient(server, world.users.admin);
    const collection = world.collections.shared;
    const data = Buffer.from('the first half; and the second half\n');
    const created = await tus.create(collection.team_id, collection.id, {
      length: data.length,
      filename: 'halves.txt',
      body: data.subarray(0, 15),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers['upload-offset']).toBe('15');
    expect(Date.parse(String(created.headers['upload-expires']))).toBeGreaterThan(Date.now());
    const url = String(created.headers.location);
    expect(await fileRow(idOf(url))).toBeUndefined();
    expect((await tus.patch(url, 15, data.subarray(15))).statusCode).toBe(204);
    expect(await fileRow(idOf(url))).toMatchObject({ size: data.length, sha256: sha256(data) });
  });

  it('stores an empty file', async () => {
    const tus = await tusClient(server, world.users.admin);
    const collection = world.collections.shared;
    const created = await tus.create(collection.team_id, collection.id, {
      length: 0,
      filename: 'empty.txt',
    });
    expect(created.statusCode, created.body).toBe(201);
    const file = await fileRow(idOf(String(created.headers.location)));
    expect(file).toMatchObject({ size: 0, sha256: sha256(Buffer.alloc(0)) });
  });

  it('verifies Upload-Checksum per request: a damaged body moves nothing', async () => {
    const tus = await tusClient(server, world.users.uploader);
    const collection = world.collections.uploaders;
    const data = randomBytes(300_000);
    const created = await tus.create(collection.team_id, collection.id, {
      length: data.length,
      filename: 'data.bin',
    });
    const url = String(created.headers.location);
    const part = data.subarray(0, 100_000);
    const damaged = Buffer.from(part);
    damaged[5] = (damaged[5] ?? 0) ^ 0xff;
    const bad = await tus.patch(url, 0, damaged, {
      'upload-checksum': checksumHeader('sha256', part),
    });
    expect(bad.statusCode).toBe(460);
    expect(bad.json()).toMatchObject({ errorCode: 'checksumMismatch' });
    expect((await tus.head(url)).headers['upload-offset']).toBe('0');

    const unknown = await tus.patch(url, 0, part, { 'upload-checksum': 'crc32 AAAA' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ errorCode: 'invalidInput' });

    for (const [offset, algorithm] of [
      [0, 'sha1'],
      [100_000, 'md5'],
      [200_000, 'sha256'],
    ] as const) {
      const chunk = data.subarray(offset, offset + 100_000);
      const ok = await tus.patch(url, offset, chunk, {
        'upload-checksum': checksumHeader(algorithm, chunk),
      });
      expect(ok.statusCode).toBe(204);
    }
    expect(await fileRow(idOf(url))).toMatchObject({ sha256: sha256(data) });
  });

  it('refuses a file whose bytes do not match the sha256 the client declared', async () => {
    const tus = await tusClient(server, world.users.uploader);
    const collection = world.collections.uploaders;
    const data = Buffer.from('the real content\n');
    const created = await tus.create(collection.team_id, collection.id, {
      length: data.length,
      filename: 'claimed.txt',
      sha256: sha256(Buffer.from('something else')),
    });
    const url = String(created.headers.location);
    const res = await tus.patch(url, 0, data);
    expect(res.statusCode).toBe(460);
    expect(await fileRow(idOf(url))).toBeUndefined();
    expect(await uploadRow(idOf(url))).toBeUndefined();
    expect(await server.tusLeftovers()).toEqual([]);
  });

  it('answers offset conflicts and completed uploads as tus says', async () => {
    const tus = await tusClient(server, world.users.uploader);
    const collection = world.collections.uploaders;
    const data = Buffer.from('0123456789');
    const created = await tus.create(collection.team_id, collection.id, {
      length: data.length,
      filename: 'digits.txt',
    });
    const url = String(created.headers.location);
    const wrong = await tus.patch(url, 4, data.subarray(4));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ errorCode: 'uploadOffsetMismatch' });
    const tooMuch = await tus.patch(url, 0, Buffer.concat([data, data]));
    expect(tooMuch.statusCode).toBe(413);
    expect((await tus.head(url)).headers['upload-offset']).toBe('0');
    expect((await tus.patch(url, 0, data)).statusCode).toBe(204);
    // The last request retried: nothing more happens.
    expect((await tus.patch(url, data.length, Buffer.alloc(0))).statusCode).toBe(204);
    expect((await tus.delete(url)).statusCode).toBe(400);
    expect(await fileRow(idOf(url))).toBeDefined();
  });

  it('terminates an upload in progress: bytes and reservation gone', async () => {
    const tus = await tusClient(server, world.users.uploader);
    const collection = world.collections.uploaders;
    const created = await tus.create(collection.team_id, collection.id, {
      length: 1000,
      filename: 'gone.bin',
    });
    const url = String(created.headers.location);
    await tus.patch(url, 0, randomBytes(400));
    const res = await tus.delete(url);
    expect(res.statusCode).toBe(204);
    expect((await tus.head(url)).statusCode).toBe(404);
    expect(await server.tusLeftovers()).toEqual([]);
  });
});
