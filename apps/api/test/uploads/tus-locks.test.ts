import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ERRORS } from '@tus/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobRun } from '../../src/jobs/types.js';
import { createServer, type Server } from '../../src/server.js';
import { expireUploadsJob } from '../../src/uploads/expire-uploads.job.js';
import { DatabaseLocker } from '../../src/uploads/upload-locks.js';
import { buildFilesWorld, sha256, type FilesWorld } from '../files/files-world.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { tusClient } from './tus-client.js';

const until = async (check: () => Promise<boolean> | boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('upload locks in the database (UPLOAD_LOCKS=database)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ UPLOAD_LOCKS: 'database', RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  const lockRow = (id: string) =>
    server.ctx.db
      .selectFrom('upload_locks')
      .selectAll()
      .where('upload_id', '=', id)
      .executeTakeFirst();
  // Two lockers on one database stand for two API processes.
  const twoProcesses = (options = {}): [DatabaseLocker, DatabaseLocker] => [
    new DatabaseLocker(server.ctx.db, { pollMs: 20, ...options }),
    new DatabaseLocker(server.ctx.db, { pollMs: 20, ...options }),
  ];

  it('makes a request wait for the holder, which is asked to let go, then takes the lock', async () => {
    const [a, b] = twoProcesses();
    const id = 'upload-wait';
    const held = a.newLock(id);
    const events: string[] = [];
    await held.lock(new AbortController().signal, async () => {
      events.push('a asked to release');
      await held.unlock();
    });
    expect(await lockRow(id)).toMatchObject({ release_requested: 0 });

    const waiting = b.newLock(id);
    await waiting.lock(new AbortController().signal, () => undefined);
    events.push('b holds');
    expect(events).toEqual(['a asked to release', 'b holds']);
    expect(await lockRow(id)).toMatchObject({ release_requested: 0 });
    await waiting.unlock();
    expect(await lockRow(id)).toBeUndefined();
  });

  it('gives up after its timeout when the holder does not let go, and stops when aborted', async () => {
    const [a, b] = twoProcesses({ acquireTimeoutMs: 200 });
    const id = 'upload-stuck';
    const held = a.newLock(id);
    let asked = 0;
    await held.lock(new AbortController().signal, () => {
      asked++;
    });
    const started = Date.now();
    await expect(b.newLock(id).lock(new AbortController().signal, () => undefined)).rejects.toBe(
      ERRORS.ERR_LOCK_TIMEOUT,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(asked).toBeGreaterThan(0);

    const abort = new AbortController();
    const aborted = b.newLock(id).lock(abort.signal, () => undefined);
    setTimeout(() => abort.abort(), 30);
    await expect(aborted).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    // The holder still holds it.
    expect((await lockRow(id))?.upload_id).toBe(id);
    await held.unlock();
  });

  it('renews a held lease, and takes over one left by a process that died', async () => {
    const [a, b] = twoProcesses({ leaseMs: 600, acquireTimeoutMs: 300 });
    const id = 'upload-lease';
    const held = a.newLock(id);
    await held.lock(new AbortController().signal, () => undefined);
    const first = (await lockRow(id))?.expires_at ?? 0;
    // Two leases' time: held all along only if renewed.
    await new Promise((resolve) => setTimeout(resolve, 1300));
    // Renewed while held: never expired, so the other process cannot take it.
    expect((await lockRow(id))?.expires_at).toBeGreaterThan(first);
    await expect(b.newLock(id).lock(new AbortController().signal, () => undefined)).rejects.toBe(
      ERRORS.ERR_LOCK_TIMEOUT,
    );
    await held.unlock();

    // A lock whose holder died: its lease ran out, the next request takes it at once.
    await server.ctx.db
      .insertInto('upload_locks')
      .values({ upload_id: 'upload-dead', holder: 'gone', expires_at: Date.now() - 1 })
      .execute();
    const taken = b.newLock('upload-dead');
    await taken.lock(new AbortController().signal, () => undefined);
    expect((await lockRow('upload-dead'))?.holder).not.toBe('gone');
    await taken.unlock();

    // One nobody asks for again is removed by the uploads' expiry job; a live one is kept.
    await server.ctx.db
      .insertInto('upload_locks')
      .values({ upload_id: 'upload-forgotten', holder: 'gone', expires_at: Date.now() - 1 })
      .execute();
    const live = a.newLock('upload-live');
    await live.lock(new AbortController().signal, () => undefined);
    await expireUploadsJob.prepare({})(
      {
        config: server.config,
        db: server.ctx.db,
        storage: server.ctx.storage,
        clock: () => Date.now(),
      },
      {} as JobRun,
    );
    expect(await lockRow('upload-forgotten')).toBeUndefined();
    expect(await lockRow('upload-live')).toBeDefined();
    await live.unlock();
  });

  it('lets go when its lock was lost', async () => {
    const [a] = twoProcesses();
    const held = a.newLock('upload-lost');
    let released = false;
    await held.lock(new AbortController().signal, () => {
      released = true;
    });
    await server.ctx.db.deleteFrom('upload_locks').where('upload_id', '=', 'upload-lost').execute();
    await until(() => released);
    await held.unlock();
  });

  describe('two API processes on one database', () => {
    let other: Server;
    let world: FilesWorld;
    beforeAll(async () => {
      // A second app on the same configuration: the same database and storage.
      other = await createServer(server.config, { worker: false });
      world = await buildFilesWorld(server.ctx, { objects: false });
    });
    afterAll(() => other.close());

    it('a HEAD on one cuts off a PATCH stuck on the other, and the upload resumes from its offset', async () => {
      const tus = await tusClient(server, world.users.uploader);
      const collection = world.collections.uploaders;
      const data = randomBytes(256 * 1024);
      const created = await tus.create(collection.team_id, collection.id, {
        length: data.length,
        filename: 'two-processes.bin',
      });
      expect(created.statusCode).toBe(201);
      const url = String(created.headers.location);
      const uploadId = url.split('/').pop() ?? '';
      const authorization = `Bearer ${await accessToken(server.ctx, world.users.uploader)}`;
      const headers = { authorization, 'tus-resumable': '1.0.0' };

      // Process 1: a PATCH whose client sends half the bytes, then nothing (a dead connection).
      const half = data.length / 2;
      const body = new PassThrough();
      body.write(data.subarray(0, half));
      const stuck = server.app
        .inject({
          method: 'PATCH',
          url,
          headers: {
            ...headers,
            'upload-offset': '0',
            'content-type': 'application/offset+octet-stream',
          },
          payload: body,
        })
        .then((res) => ({ status: res.statusCode, at: Date.now() }));
      // Half the bytes are in the store (local disk here) before the client resumes elsewhere.
      await until(async () => {
        const names = await readdir(server.config.uploadsDir);
        const sizes = await Promise.all(
          names
            .filter((name) => name.includes(uploadId) && !name.endsWith('.json'))
            .map(async (name) => (await stat(path.join(server.config.uploadsDir, name))).size),
        );
        return sizes.some((size) => size >= half);
      });

      // Process 2: the client resumes there. Its HEAD waits until process 1 lets go.
      const head = await other.app.inject({ method: 'HEAD', url, headers });
      const headAt = Date.now();
      expect(head.statusCode).toBe(200);
      const offset = Number(head.headers['upload-offset']);
      expect(offset).toBeLessThanOrEqual(half);
      // The stuck PATCH was ended before the HEAD was answered, not by its client.
      const cut = await stuck;
      expect(cut.at).toBeLessThanOrEqual(headAt);
      body.end();

      const rest = await other.app.inject({
        method: 'PATCH',
        url,
        headers: {
          ...headers,
          'upload-offset': String(offset),
          'content-type': 'application/offset+octet-stream',
        },
        payload: data.subarray(offset),
      });
      expect(rest.statusCode).toBe(204);
      const file = await server.ctx.db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', uploadId)
        .executeTakeFirst();
      expect(file).toMatchObject({ size: data.length, sha256: sha256(data) });
      expect(await lockRow(uploadId)).toBeUndefined();
    });
  });
});
