import type { FileItem } from '@raccolta/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileRow } from '../../src/files/files.repository.js';
import { renderFileJob, type RenditionJobDeps } from '../../src/files/renditions.job.js';
import { PermanentJobError } from '../../src/jobs/define-job.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import type { JobRun } from '../../src/jobs/types.js';
import { readAll } from '../../src/storage/testing/helpers.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { filesClient, injectPath, type FilesClient } from './files-api.js';
import { buildFilesWorld, createStoredFile, sha256, type FilesWorld } from './files-world.js';
import { makePdf } from '../../src/files/pdf.fixture.js';
import { bombPng, garbageJpeg, makeJpeg } from './images.js';

describe('thumbnails and previews', () => {
  let server: TestServer;
  let world: FilesWorld;
  let admin: FilesClient;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { worker: true });
    world = await buildFilesWorld(server.ctx);
    admin = await filesClient(server, world.users.admin);
  });
  afterAll(() => server.close());

  const filesOf = () => `/teams/${world.team.id}/collections/${world.collections.shared.id}/files`;
  const row = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const jobOf = (fileId: string) =>
    server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', 'files.renditions')
      .where('payload', 'like', `%${fileId}%`)
      .executeTakeFirstOrThrow();

  async function uploadAndSettle(filename: string, data: Buffer): Promise<FileRow> {
    const res = await admin.upload(world.team.id, world.collections.shared.id, { filename, data });
    expect(res.statusCode, res.body).toBe(201);
    const { fileId } = res.json<FileItem>();
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await row(fileId)).rendition_status !== 'pending',
      `the rendition of ${filename}`,
      30_000,
    );
    return row(fileId);
  }

  const deps = (): RenditionJobDeps => ({
    config: server.ctx.config,
    db: server.ctx.db,
    storage: server.ctx.storage,
    clock: server.ctx.clock,
  });
  const run = (attempt: number): JobRun => ({
    id: 'manual',
    queue: renderFileJob.queue,
    attempt,
    maxAttempts: 3,
    createdAt: 0,
    signal: new AbortController().signal,
  });

  /** A JPEG waiting for its rendition, with no job a worker could take: the test runs it. */
  async function pendingJpeg(): Promise<FileRow> {
    const stored = await createStoredFile(server.ctx, {
      collection: world.collections.owned,
      uploadedBy: world.users.owner.id,
      data: await makeJpeg(64, 64),
      contentType: 'image/jpeg',
    });
    await server.ctx.db
      .updateTable('files')
      .set({ rendition_status: 'pending' })
      .where('id', '=', stored.id)
      .execute();
    return { ...stored, rendition_status: 'pending' };
  }

  it('serves a real JPEG as WebP thumbnails of at most 320 px and previews of at most 1600 px', async () => {
    const jpeg = await makeJpeg(2000, 1500);
    const stored = await uploadAndSettle('holiday.jpg', jpeg);
    expect(stored).toMatchObject({ rendition_status: 'ready', width: 2000, height: 1500 });
    expect(stored.updated_at).toBe(stored.created_at);

    const res = await admin.get(`${filesOf()}/${stored.id}`);
    const file = res.json<FileItem>();
    expect(file.thumbnailUrl).toMatch(/\/api\/renditions\/[\w-]+\.[\w-]+$/);
    expect(file.previewUrl).toMatch(/\/api\/renditions\/[\w-]+\.[\w-]+$/);
    expect(new URL(file.thumbnailUrl ?? '').href.length).toBeLessThan(1024);

    for (const [url, max] of [
      [file.thumbnailUrl, 320],
      [file.previewUrl, 1600],
    ] as const) {
      const image = await server.app.inject(injectPath(url ?? ''));
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(image.headers['content-security-policy']).toBe('sandbox');
      expect(image.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
      const maxAge = Number(/max-age=(\d+)/.exec(String(image.headers['cache-control']))?.[1]);
      const ttl = server.config.files.renditionUrlTtlSeconds;
      expect(maxAge).toBeGreaterThanOrEqual(ttl - 5);
      expect(maxAge).toBeLessThanOrEqual(ttl + ttl / 10);
      const meta = await sharp(image.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect(Math.max(meta.width, meta.height)).toBe(max);
    }
  });

  it("renders an uploaded TIFF whose directory follows its pixels (a scanner's layout)", async () => {
    const tiff = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: '#3366aa' },
    })
      .tiff({ compression: 'none' })
      .toBuffer();
    // The directory lies beyond the bytes the upload's type is decided from.
    expect(tiff.readUInt32LE(4)).toBeGreaterThan(4100);
    const stored = await uploadAndSettle('scan.tif', tiff);
    expect(stored).toMatchObject({
      content_type: 'image/tiff',
      rendition_status: 'ready',
      width: 1200,
      height: 900,
    });
  });

  it('gives a PDF a thumbnail and a preview of its first page, and an inline link for the viewer', async () => {
    const pdf = makePdf({ pages: 2 });
    const stored = await uploadAndSettle('minutes.pdf', pdf);
    expect(stored).toMatchObject({
      content_type: 'application/pdf',
      rendition_status: 'ready',
      width: 1131,
      height: 1600,
    });
    const file = (await admin.get(`${filesOf()}/${stored.id}`)).json<FileItem>();
    const thumbnail = await server.app.inject(injectPath(file.thumbnailUrl ?? ''));
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumbnail.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([226, 320]);
    // The page's blue band, drawn.
    const [r, g, b] = await sharp(thumbnail.rawPayload)
      .extract({ left: 100, top: 20, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect(b).toBeGreaterThan(150);
    expect(r).toBeLessThan(80);
    expect(g).toBeLessThan(140);

    // The preview's frame: the original inline, framable by the web app only.
    const link = await admin.get(`${filesOf()}/${stored.id}/download?disposition=inline`);
    expect(link.statusCode).toBe(200);
    const inline = await server.app.inject(injectPath(link.json<{ url: string }>().url));
    expect(inline.statusCode).toBe(200);
    expect(inline.headers['content-type']).toBe('application/pdf');
    expect(inline.headers['content-disposition']).toBe('inline; filename="minutes.pdf"');
    expect(inline.headers['x-content-type-options']).toBe('nosniff');
    expect(inline.headers['x-frame-options']).toBeUndefined();
    expect(inline.headers['content-security-policy']).toBe(
      `default-src 'none'; frame-ancestors ${server.config.webOrigins.join(' ')}; base-uri 'none'`,
    );
    expect(sha256(inline.rawPayload)).toBe(sha256(pdf));
    // Saved, as before: an attachment no page may frame.
    const saved = await server.app.inject(
      injectPath(
        (await admin.get(`${filesOf()}/${stored.id}/download`)).json<{ url: string }>().url,
      ),
    );
    expect(saved.headers['content-disposition']).toBe('attachment; filename="minutes.pdf"');
    expect(String(saved.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('serves no other type inline for the viewer, and refuses an unknown disposition', async () => {
    const stored = await uploadAndSettle('photo.jpg', await makeJpeg(64, 64));
    const link = await admin.get(`${filesOf()}/${stored.id}/download?disposition=inline`);
    const res = await server.app.inject(injectPath(link.json<{ url: string }>().url));
    expect(res.headers['content-disposition']).toBe('attachment; filename="photo.jpg"');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    const bad = await admin.get(`${filesOf()}/${stored.id}/download?disposition=frame`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ errorCode: 'invalidInput' });
  });

  it('marks a 50,000 × 50,000 PNG bomb failed at once, and still lists it', async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(200);
    const stored = await uploadAndSettle('bomb.png', bomb);
    expect(stored.content_type).toBe('image/png');
    expect(stored.rendition_status).toBe('failed');
    expect(stored.thumbnail_key).toBeNull();
    const job = await jobOf(stored.id);
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job.last_error).toContain('tooManyPixels');
    expect(job.last_error).toContain(stored.id);

    const listed = (await admin.listAll(filesOf())).find((f) => f.fileId === stored.id);
    expect(listed).toMatchObject({
      thumbnailUrl: null,
      previewUrl: null,
      contentType: 'image/png',
    });
  });

  it('marks bytes that only look like a JPEG failed, and still lists them', async () => {
    const stored = await uploadAndSettle('broken.jpg', garbageJpeg());
    expect(stored.content_type).toBe('image/jpeg');
    expect(stored.rendition_status).toBe('failed');
    const job = await jobOf(stored.id);
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job.last_error).toContain('undecodable');
    const listed = (await admin.listAll(filesOf())).find((f) => f.fileId === stored.id);
    expect(listed).toMatchObject({ thumbnailUrl: null, previewUrl: null });
  });

  it('gives the same result when it runs again', async () => {
    const stored = await uploadAndSettle('again.jpg', await makeJpeg(640, 480));
    expect(stored.rendition_status).toBe('ready');
    const bytes = async (key: string | null) =>
      sha256(await readAll(await server.ctx.storage.get(key ?? '')));
    const first = {
      thumbnail: await bytes(stored.thumbnail_key),
      preview: await bytes(stored.preview_key),
    };

    // A run after completion (the job was claimed again after a crash) changes nothing.
    await renderFileJob.prepare({ fileId: stored.id })(deps(), run(1));
    expect(await row(stored.id)).toEqual(stored);

    // A run of a file still pending (a crash between the writes and the update) makes the same.
    await server.ctx.db
      .updateTable('files')
      .set({ rendition_status: 'pending', thumbnail_key: null, preview_key: null })
      .where('id', '=', stored.id)
      .execute();
    await renderFileJob.prepare({ fileId: stored.id })(deps(), run(2));
    const again = await row(stored.id);
    expect(again).toEqual(stored);
    expect({
      thumbnail: await bytes(again.thumbnail_key),
      preview: await bytes(again.preview_key),
    }).toEqual(first);
  });

  it('tells a client to wait while the rendition is pending, and stop once ready, failed or none', async () => {
    const res = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'fresh.jpg',
      data: await makeJpeg(320, 240),
    });
    expect(res.statusCode, res.body).toBe(201);
    const fresh = res.json<FileItem>();
    expect(fresh).toMatchObject({ renditionStatus: 'pending', thumbnailUrl: null });
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await row(fresh.fileId)).rendition_status !== 'pending',
      'the rendition of fresh.jpg',
      30_000,
    );
    const broken = await uploadAndSettle('broken-again.jpg', garbageJpeg());
    const text = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'notes.txt',
      data: Buffer.from('notes'),
    });
    expect(text.json<FileItem>()).toMatchObject({ renditionStatus: 'none', thumbnailUrl: null });

    const listed = new Map((await admin.listAll(filesOf())).map((f) => [f.fileId, f]));
    expect(listed.get(fresh.fileId)).toMatchObject({ renditionStatus: 'ready' });
    expect(listed.get(fresh.fileId)?.thumbnailUrl).toMatch(/\/api\/renditions\//);
    expect(listed.get(broken.id)).toMatchObject({ renditionStatus: 'failed', thumbnailUrl: null });
    expect(listed.get(text.json<FileItem>().fileId)).toMatchObject({ renditionStatus: 'none' });
  });

  it('is done when the file is gone', async () => {
    await expect(
      renderFileJob.prepare({ fileId: '01900000-0000-7000-8000-000000000000' })(deps(), run(1)),
    ).resolves.toBeUndefined();
  });

  it('retries storage trouble, marking the file failed only when the last attempt fails', async () => {
    const { id: fileId } = await pendingJpeg();
    const failing: RenditionJobDeps = {
      ...deps(),
      storage: {
        ...server.ctx.storage,
        put: () => Promise.reject(new Error('disk full')),
      },
    };
    const job = renderFileJob.prepare({ fileId });
    await expect(job(failing, run(1))).rejects.toThrow('disk full');
    expect((await row(fileId)).rendition_status).toBe('pending');
    await expect(job(failing, run(3))).rejects.toThrow('disk full');
    expect((await row(fileId)).rendition_status).toBe('failed');
  });

  it('refuses an original that is gone from storage for good', async () => {
    const stored = await pendingJpeg();
    const fileId = stored.id;
    await server.ctx.storage.delete(stored.storage_key);
    await expect(renderFileJob.prepare({ fileId })(deps(), run(1))).rejects.toBeInstanceOf(
      PermanentJobError,
    );
    expect((await row(fileId)).rendition_status).toBe('failed');
  });
});
