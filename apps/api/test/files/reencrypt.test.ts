/**
 * Rotating the storage encryption key, on local disk and on S3: files written with the earlier
 * key stay readable through the API once it is listed in STORAGE_ENCRYPTION_PREVIOUS_KEYS, and
 * `npm run admin -- reencrypt-files` writes them again with the current key under new names,
 * moves the rows, and leaves the earlier objects to the worker once the links handed out for them
 * have expired; a second run has nothing to do.
 */
import { Readable } from 'node:stream';
import type { DownloadLinkResponse, FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/cli/admin-commands.js';
import { deleteFileObjectsJob } from '../../src/files/delete-file-objects.job.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import { withEncryption } from '../../src/storage/encrypting-storage.js';
import { rotatedKey, StorageCipher } from '../../src/storage/encryption.js';
import { reencryptFiles } from '../../src/files/reencrypt-files.js';
import type { Storage } from '../../src/storage/storage.js';
import { readAll } from '../../src/storage/testing/helpers.js';
import {
  rawStorage,
  STORAGE_KINDS,
  startUploadServer,
  type UploadServer,
} from '../uploads/tus-world.js';
import { filesClient, injectPath, type FilesClient } from './files-api.js';
import { buildFilesWorld, type FilesWorld } from './files-world.js';
import { makeJpeg } from './images.js';

const EARLIER = Buffer.alloc(32, 0x11);
const CURRENT = Buffer.alloc(32, 0x22);

describe.each(STORAGE_KINDS)('a storage key rotation on %s storage', (kind) => {
  let server: UploadServer;
  let world: FilesWorld;
  let admin: FilesClient;
  let raw: Storage;
  /** The storage as it was before the rotation: the earlier key alone. */
  let earlier: Storage;
  /** Only what the current key can read. */
  let currentOnly: Storage;
  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const base = () => `/teams/${world.team.id}/collections/${world.collections.shared.id}`;
  const links = () => ({
    signingSecret: server.config.secret,
    publicBaseUrl: server.config.apiPublicUrl,
    clock: () => new Date(),
  });

  beforeAll(async () => {
    server = await startUploadServer(
      kind,
      {
        STORAGE_ENCRYPTION_KEY: CURRENT.toString('hex'),
        STORAGE_ENCRYPTION_PREVIOUS_KEYS: EARLIER.toString('base64'),
      },
      { worker: true },
    );
    world = await buildFilesWorld(server.ctx, { objects: false });
    admin = await filesClient(server, world.users.admin);
    raw = rawStorage(server);
    earlier = withEncryption(raw, new StorageCipher(EARLIER), links());
    currentOnly = withEncryption(raw, new StorageCipher(CURRENT), links());
    await server.ctx.db
      .updateTable('teams')
      .set({ plan: 'premium' })
      .where('id', '=', world.team.id)
      .execute();
  });
  afterAll(() => server.close());

  async function download(fileId: string, range?: string) {
    const link = await admin.get(`${base()}/files/${fileId}/download`);
    expect(link.statusCode, link.body).toBe(200);
    return server.app.inject({
      method: 'GET',
      url: injectPath(link.json<DownloadLinkResponse>().url),
      ...(range ? { headers: { range } } : {}),
    });
  }

  it('reads what the earlier key wrote, then writes it again with the current key', async () => {
    const photo = await makeJpeg(480, 360);
    const posted = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'before-the-rotation.jpg',
      data: photo,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const fileId = posted.json<FileItem>().fileId;
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await fileRow(fileId)).rendition_status === 'ready',
      'the renditions',
    );
    const before = await fileRow(fileId);
    const keys = [before.storage_key, before.thumbnail_key ?? '', before.preview_key ?? ''];
    // As they were before the rotation: the same objects, enciphered with the earlier key.
    const plains: Buffer[] = [];
    for (const key of keys) {
      const bytes = await readAll(await server.ctx.storage.get(key));
      plains.push(bytes);
      await earlier.put(key, Readable.from([bytes]));
      await expect(currentOnly.get(key)).rejects.toThrow(/STORAGE_ENCRYPTION_PREVIOUS_KEYS/);
    }

    // Readable through the API with the earlier key listed, whole and in part.
    const whole = await download(fileId);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(photo)).toBe(true);
    const part = await download(fileId, 'bytes=100-4099');
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(photo.subarray(100, 4100))).toBe(true);

    const said = await runAdminCommand(server.ctx, ['reencrypt-files']);
    expect(said).toMatch(/^1 file\(s\) written again with the current key/);
    expect(said).toMatch(/No file needs an earlier key any more/);

    const after = await fileRow(fileId);
    const moved = [after.storage_key, after.thumbnail_key ?? '', after.preview_key ?? ''];
    const currentId = new StorageCipher(CURRENT).keyId.toString('hex');
    expect(said).toContain(`(id ${currentId})`);
    const runMark = new RegExp(`\\.k${currentId}-[0-9a-f]{8}\\.enc$`);
    for (const [index, key] of moved.entries()) {
      expect(key).toMatch(runMark);
      expect(key.replace(runMark, '.enc')).toBe(keys[index]);
    }
    // The copies need the current key alone, and hold the same plain bytes.
    for (const [index, key] of moved.entries()) {
      const copied = await readAll(await currentOnly.get(key));
      expect(copied.equals(plains[index] ?? Buffer.alloc(0)), key).toBe(true);
    }
    const again = await download(fileId);
    expect(again.rawPayload.equals(photo)).toBe(true);
    const item = (await admin.get(`${base()}/files/${fileId}`)).json<FileItem>();
    const thumbnail = await server.app.inject(injectPath(item.thumbnailUrl ?? ''));
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.rawPayload.subarray(8, 12).toString('ascii')).toBe('WEBP');

    // The earlier objects stay for the links handed out before, then the worker deletes them.
    for (const key of keys) expect(await raw.stat(key)).not.toBeNull();
    const deletion = await server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', deleteFileObjectsJob.queue)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(deletion.run_at).toBeGreaterThan(Date.now() + server.config.signedUrlTtlSeconds * 1000);
    await server.ctx.db
      .updateTable('jobs')
      .set({ run_at: 0 })
      .where('id', '=', deletion.id)
      .execute();
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await raw.stat(keys[0] ?? '')) === null,
      'the earlier objects to go',
    );
    for (const key of keys) expect(await raw.stat(key)).toBeNull();

    // Nothing is left to do, and a second run moves nothing.
    expect(await runAdminCommand(server.ctx, ['reencrypt-files'])).toMatch(/^0 file\(s\)/);
    expect(await fileRow(fileId)).toMatchObject({
      storage_key: after.storage_key,
      thumbnail_key: after.thumbnail_key,
      preview_key: after.preview_key,
    });
  });

  it('lets two runs overlap: neither writes over a copy a file points at, one run’s copies stay', async () => {
    const text = Buffer.from('rewritten by whichever run moves the row first');
    const posted = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'two-runs.txt',
      data: text,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const fileId = posted.json<FileItem>().fileId;
    const { storage_key: key } = await fileRow(fileId);
    // As the earlier key wrote it.
    await earlier.put(key, Readable.from([await readAll(await currentOnly.get(key))]));

    // The second run has found the file still on the earlier key, and copies it only once the
    // first run has finished and moved the row: what a slow second run started by mistake does.
    let firstDone: () => void = () => undefined;
    const firstFinished = new Promise<void>((resolve) => (firstDone = resolve));
    const overwritten: string[] = [];
    let secondCopies = 0;
    const storage = server.ctx.storage;
    const slowStorage = new Proxy(storage, {
      get(target, property, receiver) {
        if (property === 'put')
          return async (...args: Parameters<Storage['put']>) => {
            await firstFinished;
            secondCopies++;
            const pointing = await server.ctx.db
              .selectFrom('files')
              .select('id')
              .where('storage_key', '=', args[0])
              .executeTakeFirst();
            if (pointing) overwritten.push(args[0]);
            return target.put(...args);
          };
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const second = reencryptFiles({ ...server.ctx, storage: slowStorage }, 'bbbbbbbb');
    const first = await reencryptFiles(server.ctx, 'aaaaaaaa');
    firstDone();
    const outcomes = [first, await second];

    expect(secondCopies).toBe(1);
    expect(overwritten).toEqual([]);
    expect(outcomes.map((o) => o.rewritten)).toEqual([1, 0]);
    const moved = (await fileRow(fileId)).storage_key;
    expect(moved).toBe(rotatedKey(key, first.keyId, 'aaaaaaaa'));
    expect(await raw.stat(moved)).not.toBeNull();
    // The second run's copy, made after the row had moved, is removed.
    expect(await raw.stat(rotatedKey(key, first.keyId, 'bbbbbbbb'))).toBeNull();
    expect((await download(fileId)).rawPayload.equals(text)).toBe(true);
  });

  it('names the files whose key is not configured, and leaves them as they are', async () => {
    const posted = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'unknown-key.txt',
      data: Buffer.from('written with a key nobody configured'),
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const fileId = posted.json<FileItem>().fileId;
    const row = await fileRow(fileId);
    const stranger = withEncryption(raw, new StorageCipher(Buffer.alloc(32, 0x33)), links());
    await stranger.put(row.storage_key, Readable.from([Buffer.from('unreadable here')]));

    const said = await runAdminCommand(server.ctx, ['reencrypt-files']);
    expect(said).toContain(`1 file(s) were encrypted with a key that is not configured`);
    expect(said).toContain(fileId);
    expect((await fileRow(fileId)).storage_key).toBe(row.storage_key);
  });
});
