/**
 * At-rest encryption of the premium plan (spec §1 "Encryption of stored files is for the
 * premium plan only"), through the whole API on local disk and on S3: both ways of uploading,
 * what lies in storage, downloads (whole and ranged), renditions, archives, and a plan change.
 */
import type { DownloadLinkResponse, FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import type { Storage } from '../../src/storage/storage.js';
import { readAll, sha256 } from '../../src/storage/testing/helpers.js';
import { archiveDir, downloadsClient } from '../downloads/downloads-env.js';
import { inspectZip } from '../downloads/zip-check.js';
import {
  rawStorage,
  STORAGE_KINDS,
  startUploadServer,
  type UploadServer,
} from '../uploads/tus-world.js';
import { tusClient } from '../uploads/tus-client.js';
import { filesClient, injectPath, type FilesClient } from './files-api.js';
import { buildFilesWorld, type FilesWorld } from './files-world.js';
import { makeJpeg } from './images.js';

describe.each(STORAGE_KINDS)('premium encryption on %s storage', (kind) => {
  let server: UploadServer;
  let world: FilesWorld;
  let admin: FilesClient;
  let raw: Storage;
  const setPlan = (plan: 'free' | 'premium') =>
    server.ctx.db.updateTable('teams').set({ plan }).where('id', '=', world.team.id).execute();
  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const base = () => `/teams/${world.team.id}/collections/${world.collections.shared.id}`;

  beforeAll(async () => {
    server = await startUploadServer(kind, {}, { worker: true });
    world = await buildFilesWorld(server.ctx);
    admin = await filesClient(server, world.users.admin);
    raw = rawStorage(server);
    await setPlan('premium');
  });
  afterAll(() => server.close());

  /** Stored enciphered: the header, the plain size plus it, and not a run of the plain bytes. */
  async function expectEncrypted(key: string | null, plain: Buffer) {
    expect(key).toMatch(/\.enc$/);
    const stored = await readAll(await raw.get(key ?? ''));
    expect(stored.subarray(0, 4).toString('ascii')).toBe('RCE1');
    expect(stored.length).toBe(plain.length + 24);
    expect(stored.includes(plain.subarray(100, 164))).toBe(false);
  }

  async function downloaded(fileId: string, range?: string) {
    const link = await admin.get(`${base()}/files/${fileId}/download`);
    expect(link.statusCode, link.body).toBe(200);
    const url = link.json<DownloadLinkResponse>().url;
    // Never a presigned link straight to the bucket: it would hand out ciphertext.
    expect(new URL(url).pathname).toMatch(/^\/api\/storage\//);
    return server.app.inject({
      method: 'GET',
      url: injectPath(url),
      ...(range ? { headers: { range } } : {}),
    });
  }

  it('stores both kinds of upload, their renditions and their archive encrypted, and serves them plain', async () => {
    const photo = await makeJpeg(640, 480);
    const posted = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'posted.jpg',
      data: photo,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const postedId = posted.json<FileItem>().fileId;

    const resumable = await makeJpeg(800, 600);
    const tus = await tusClient(server, world.users.admin);
    const sent = await tus.upload(world.team.id, world.collections.shared.id, resumable, {
      filename: 'resumed.jpg',
      chunk: 64 * 1024,
    });
    expect(sent.last.statusCode, sent.last.body).toBe(204);
    const tusId = sent.url.split('/').pop() ?? '';

    for (const [id, bytes] of [
      [postedId, photo],
      [tusId, resumable],
    ] as const) {
      const row = await fileRow(id);
      await expectEncrypted(row.storage_key, bytes);
      expect(row.sha256).toBe(sha256(bytes));
      expect(row.size).toBe(bytes.length);
      const whole = await downloaded(id);
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-length']).toBe(String(bytes.length));
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      const part = await downloaded(id, 'bytes=1000-5000');
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 1000-5000/${bytes.length}`);
      expect(part.rawPayload.equals(bytes.subarray(1000, 5001))).toBe(true);
    }
    // Nothing plain is left of the resumable upload: not the tus store's object, not its files.
    expect(await raw.stat(`uploads/${tusId}`)).toBeNull();
    expect(await server.tusLeftovers()).toEqual([]);

    // Renditions: encrypted at rest, served as pictures.
    server.worker?.worker.poke();
    await waitUntil(async () => {
      const rows = await Promise.all([fileRow(postedId), fileRow(tusId)]);
      return rows.every((row) => row.rendition_status === 'ready');
    }, 'the renditions');
    for (const id of [postedId, tusId]) {
      const row = await fileRow(id);
      expect(row.thumbnail_key).toMatch(/thumbnail\.webp\.enc$/);
      expect(row.preview_key).toMatch(/preview\.webp\.enc$/);
      const stored = await readAll(await raw.get(row.thumbnail_key ?? ''));
      expect(stored.subarray(0, 4).toString('ascii')).toBe('RCE1');
      const item = (await admin.get(`${base()}/files/${id}`)).json<FileItem>();
      for (const url of [item.thumbnailUrl, item.previewUrl]) {
        const served = await server.app.inject(injectPath(url ?? ''));
        expect(served.statusCode).toBe(200);
        expect(served.headers['content-type']).toBe('image/webp');
        expect(served.rawPayload.subarray(0, 4).toString('ascii')).toBe('RIFF');
        expect(served.rawPayload.subarray(8, 12).toString('ascii')).toBe('WEBP');
      }
    }

    // The collection's archive: encrypted at rest, a valid zip of the plain files.
    const downloads = await downloadsClient(server, world.users.admin);
    const requested = await downloads.request(world.team.id, {
      collectionId: world.collections.shared.id,
    });
    server.worker?.worker.poke();
    expect((await downloads.settled(world.team.id, requested.requestId)).status).toBe('ready');
    const part = await server.ctx.db
      .selectFrom('download_parts')
      .select('storage_key')
      .where('download_id', '=', requested.requestId)
      .executeTakeFirstOrThrow();
    expect(part.storage_key).toMatch(/\.zip\.enc$/);
    const storedZip = await readAll(await raw.get(part.storage_key ?? ''));
    expect(storedZip.subarray(0, 4).toString('ascii')).toBe('RCE1');
    const link = await downloads.link(world.team.id, requested.requestId);
    expect(new URL(link.json<DownloadLinkResponse>().url).pathname).toMatch(/^\/api\/storage\//);
    const zip = await downloads.fetchLink(link);
    expect(zip.statusCode).toBe(200);
    const dir = archiveDir();
    try {
      const entries = await inspectZip(await dir.save('archive.zip', zip.rawPayload));
      const hashes = entries.map((entry) => entry.sha256);
      expect(hashes).toEqual(expect.arrayContaining([sha256(photo), sha256(resumable)]));
    } finally {
      dir.remove();
    }
  });

  it('keeps what was stored encrypted readable after a plan change, and stores new files plain', async () => {
    const before = await makeJpeg(320, 240);
    const first = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'before.jpg',
      data: before,
    });
    expect(first.statusCode, first.body).toBe(201);
    await setPlan('free');
    try {
      const after = Buffer.from('plain text after the plan changed '.repeat(20));
      const second = await admin.upload(world.team.id, world.collections.shared.id, {
        filename: 'after.txt',
        data: after,
      });
      expect(second.statusCode, second.body).toBe(201);
      const row = await fileRow(second.json<FileItem>().fileId);
      expect(row.storage_key).not.toMatch(/\.enc$/);
      expect((await readAll(await raw.get(row.storage_key))).equals(after)).toBe(true);

      const old = await downloaded(first.json<FileItem>().fileId);
      expect(old.statusCode).toBe(200);
      expect(old.rawPayload.equals(before)).toBe(true);
    } finally {
      await setPlan('premium');
    }
  });
});
