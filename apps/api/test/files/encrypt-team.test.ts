/**
 * A team that becomes premium (`set-plan … premium`) has the files it already had encrypted in
 * the background, on local disk and on S3: originals and renditions move to `.enc` copies, links
 * handed out before keep working until they expire, then the plain objects go; a file whose
 * renditions are being made waits for a later run.
 */
import type { DownloadLinkResponse, FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/cli/admin-commands.js';
import { encryptTeamFilesJob } from '../../src/files/encrypt-team.job.js';
import { deleteFileObjectsJob } from '../../src/files/delete-file-objects.job.js';
import { waitUntil } from '../../src/jobs/test-utils.fixture.js';
import type { Storage } from '../../src/storage/storage.js';
import { readAll } from '../../src/storage/testing/helpers.js';
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

describe.each(STORAGE_KINDS)('a team becoming premium on %s storage', (kind) => {
  let server: UploadServer;
  let world: FilesWorld;
  let admin: FilesClient;
  let raw: Storage;
  const fileRow = (id: string) =>
    server.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const base = () => `/teams/${world.team.id}/collections/${world.collections.shared.id}`;
  const jobsOf = (queue: string) =>
    server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', queue)
      .where('status', '=', 'pending')
      .execute();
  /** Pending jobs of a queue made due now, as the clock would, and run. */
  async function runDue(queue: string) {
    await server.ctx.db
      .updateTable('jobs')
      .set({ run_at: 0 })
      .where('queue', '=', queue)
      .where('status', '=', 'pending')
      .execute();
    server.worker?.worker.poke();
    await waitUntil(async () => {
      const left = await server.ctx.db
        .selectFrom('jobs')
        .select('id')
        .where('queue', '=', queue)
        .where('status', 'in', ['pending', 'running'])
        .execute();
      return left.length === 0;
    }, `${queue} to run`);
  }

  beforeAll(async () => {
    server = await startUploadServer(kind, {}, { worker: true });
    world = await buildFilesWorld(server.ctx, { objects: false });
    admin = await filesClient(server, world.users.admin);
    raw = rawStorage(server);
  });
  afterAll(() => server.close());

  it('encrypts what it has, keeps old links working until they expire, then drops the plain objects', async () => {
    const photo = await makeJpeg(500, 400);
    const posted = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'before.jpg',
      data: photo,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const postedId = posted.json<FileItem>().fileId;
    const resumable = Buffer.from('a plain document uploaded through tus '.repeat(200));
    const sent = await (
      await tusClient(server, world.users.admin)
    ).upload(world.team.id, world.collections.shared.id, resumable, { filename: 'notes.txt' });
    expect(sent.last.statusCode, sent.last.body).toBe(204);
    const tusId = sent.url.split('/').pop() ?? '';
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await fileRow(postedId)).rendition_status === 'ready',
      'the renditions',
    );
    // A file whose renditions are (said to be) being made waits.
    const waiting = await admin.upload(world.team.id, world.collections.shared.id, {
      filename: 'waiting.txt',
      data: 'not yet',
    });
    const waitingId = waiting.json<FileItem>().fileId;
    await server.ctx.db
      .updateTable('files')
      .set({ rendition_status: 'pending' })
      .where('id', '=', waitingId)
      .execute();

    const before = await fileRow(postedId);
    const plainKeys = [before.storage_key, before.thumbnail_key, before.preview_key];
    const tusPlain = (await fileRow(tusId)).storage_key;
    const oldLink = (
      await admin.get(`${base()}/files/${postedId}/download`)
    ).json<DownloadLinkResponse>().url;

    expect(await runAdminCommand(server.ctx, ['set-plan', world.team.id, 'premium'])).toMatch(
      /plan premium .*files encrypted at rest/,
    );
    server.worker?.worker.poke();
    await waitUntil(
      async () => (await jobsOf(encryptTeamFilesJob.queue)).some((job) => job.run_at > Date.now()),
      'the run, and its retry for the waiting file',
    );

    const after = await fileRow(postedId);
    expect(after.storage_key).toBe(`${before.storage_key}.enc`);
    expect(after.thumbnail_key).toBe(`${before.thumbnail_key ?? ''}.enc`);
    expect(after.preview_key).toBe(`${before.preview_key ?? ''}.enc`);
    expect((await fileRow(tusId)).storage_key).toBe(`${tusPlain}.enc`);
    expect((await fileRow(waitingId)).storage_key).not.toMatch(/\.enc$/);
    for (const key of [
      after.storage_key,
      after.thumbnail_key,
      (await fileRow(tusId)).storage_key,
    ]) {
      const stored = await readAll(await raw.get(key ?? ''));
      expect(stored.subarray(0, 4).toString('ascii')).toBe('RCE1');
    }

    // Served plain through new links, and through the link handed out before.
    const link = (
      await admin.get(`${base()}/files/${postedId}/download`)
    ).json<DownloadLinkResponse>().url;
    for (const url of [link, oldLink]) {
      const served = kind === 's3' && url === oldLink ? await fetch(url) : null;
      const body = served
        ? Buffer.from(await served.arrayBuffer())
        : (await server.app.inject(injectPath(url))).rawPayload;
      expect(body.equals(photo)).toBe(true);
    }
    const item = (await admin.get(`${base()}/files/${postedId}`)).json<FileItem>();
    const thumbnail = await server.app.inject(injectPath(item.thumbnailUrl ?? ''));
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.rawPayload.subarray(8, 12).toString('ascii')).toBe('WEBP');
    const notes = (
      await admin.get(`${base()}/files/${tusId}/download`)
    ).json<DownloadLinkResponse>().url;
    expect((await server.app.inject(injectPath(notes))).rawPayload.equals(resumable)).toBe(true);

    // The plain objects wait for the links to expire, then go.
    const deletions = await jobsOf(deleteFileObjectsJob.queue);
    expect(deletions.length).toBeGreaterThanOrEqual(2);
    const ttlMs = server.config.signedUrlTtlSeconds * 1000;
    for (const job of deletions) expect(job.run_at).toBeGreaterThan(Date.now() + ttlMs - 5_000);
    for (const key of [...plainKeys, tusPlain]) expect(await raw.stat(key ?? '')).not.toBeNull();
    await runDue(deleteFileObjectsJob.queue);
    for (const key of [...plainKeys, tusPlain]) expect(await raw.stat(key ?? '')).toBeNull();

    // Once its renditions are made, the waiting file follows on the next run.
    await server.ctx.db
      .updateTable('files')
      .set({ rendition_status: 'none' })
      .where('id', '=', waitingId)
      .execute();
    await runDue(encryptTeamFilesJob.queue);
    expect((await fileRow(waitingId)).storage_key).toMatch(/\.enc$/);
    const waitingLink = (
      await admin.get(`${base()}/files/${waitingId}/download`)
    ).json<DownloadLinkResponse>().url;
    expect((await server.app.inject(injectPath(waitingLink))).body).toBe('not yet');
  });
});
