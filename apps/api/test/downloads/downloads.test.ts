import type { Download } from '@raccolta/contracts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionRow } from '../../src/db/rows.js';
import { buildDownloadJob } from '../../src/downloads/build-download.job.js';
import { partKey } from '../../src/downloads/downloads.keys.js';
import { expireDownloadsJob } from '../../src/downloads/expire-downloads.job.js';
import type { FileRow } from '../../src/files/files.repository.js';
import type { JobRun } from '../../src/jobs/types.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { createCollection, createStoredFile } from '../files/files-world.js';
import { buildWorld, type World } from '../members/world.js';
import { archiveDir, downloadsClient, type DownloadsClient } from './downloads-env.js';
import { inspectZip, type ZipListing } from './zip-check.js';

const MiB = 1024 * 1024;
const DAY = 24 * 60 * 60_000;

/** Text that deflate shrinks a lot, as a CSV or a note would. */
const text = (lines: number) =>
  Buffer.from(Array.from({ length: lines }, (_, i) => `row ${i},value ${i % 7}\n`).join(''));

/** The caller's clock `hours` east of UTC at `at`, as `?localTime=` takes it. */
function localClock(at: number, hours: number): string {
  const d = new Date(at + hours * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  );
}

/** The name a signed link saves its file under. */
function savedName(contentDisposition: unknown): string {
  const header = String(contentDisposition);
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(header)?.[1];
  if (encoded !== undefined) return decodeURIComponent(encoded);
  return /filename="([^"]*)"/.exec(header)?.[1] ?? '';
}

function expectSameFiles(entries: ZipListing[], files: FileRow[]): void {
  const hashes = (list: { sha256: string }[]) => list.map((e) => e.sha256).sort();
  expect(entries).toHaveLength(files.length);
  expect(hashes(entries)).toEqual(hashes(files));
  const names = entries.map((e) => e.name.toLowerCase());
  expect(new Set(names).size).toBe(names.length);
}

function jobRun(attempt: number): JobRun {
  return {
    id: 'test-run',
    queue: buildDownloadJob.queue,
    attempt,
    maxAttempts: 5,
    createdAt: Date.now(),
    signal: new AbortController().signal,
  };
}

describe('collection downloads, built by the worker', () => {
  let server: TestServer;
  let smtp: SmtpCapture;
  let world: World;
  let owner: DownloadsClient;
  const zips = archiveDir();
  const clock = { offset: 0 };

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    server = await startTestServer(
      {
        RATE_LIMIT_MAX: '100000',
        MAIL_TRANSPORT: 'smtp',
        SMTP_URL: smtp.url,
        DOWNLOAD_PART_MAX_BYTES: String(MiB),
      },
      { worker: true, clock: () => Date.now() + clock.offset },
    );
    world = await buildWorld(server.ctx);
    owner = await downloadsClient(server, world.users.owner);
  });
  afterAll(async () => {
    await server.close();
    await smtp.close();
    zips.remove();
  });

  const newCollection = (name: string) =>
    createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.admin.id,
      mode: 'collaborative',
      name,
    });
  const store = (
    collection: CollectionRow,
    name: string,
    data: Buffer,
    contentType = 'image/jpeg',
  ) =>
    createStoredFile(server.ctx, {
      collection,
      uploadedBy: world.users.uploader.id,
      name,
      data,
      contentType,
    });

  it('archives a collection: names made unique, photos stored, text deflated, every byte the same, an e-mail', async () => {
    const collection = await newCollection('Gita: 2025/26');
    const files = [
      await store(collection, 'photo.jpg', randomBytes(200_000)),
      await store(collection, 'photo.jpg', randomBytes(150_000)),
      await store(collection, 'PHOTO.JPG', randomBytes(10_000)),
      await store(collection, 'notes.txt', text(5000), 'text/plain'),
      await store(collection, 'perché è così.pdf', randomBytes(30_000), 'application/pdf'),
      await store(collection, 'empty.txt', Buffer.alloc(0), 'text/plain'),
    ];
    const other = await newCollection('Other');
    await store(other, 'elsewhere.jpg', randomBytes(1000));

    const requested = await owner.request(world.team.id, { collectionId: collection.id });
    expect(requested).toMatchObject({ status: 'inProgress', fileCount: 6, readyParts: 0 });
    expect(requested.totalBytes).toBe(files.reduce((sum, f) => sum + f.size, 0));

    const ready = await owner.settled(world.team.id, requested.requestId);
    expect(ready).toMatchObject({ status: 'ready', totalParts: 1, readyParts: 1, fileCount: 6 });
    expect(ready.parts).toEqual([
      { partId: 1, status: 'ready', fileCount: 6, size: expect.any(Number) as number },
    ]);
    expect(ready.expiresAt).not.toBeNull();

    // The caller's clock (UTC+2, say) puts the moment of the request before the name.
    const link = await owner.link(
      world.team.id,
      ready.requestId,
      undefined,
      `?localTime=${localClock(server.ctx.clock(), 2)}`,
    );
    const body = await owner.fetchLink(link);
    expect(body.statusCode).toBe(200);
    expect(body.headers['content-type']).toBe('application/zip');
    expect(savedName(body.headers['content-disposition'])).toBe(
      `${localClock(Date.parse(requested.createdAt), 2)} Gita_ 2025_26.zip`,
    );
    expect(body.rawPayload.length).toBe(ready.parts[0]?.size);

    const entries = await inspectZip(await zips.save('whole.zip', body.rawPayload));
    expectSameFiles(entries, files);
    for (const entry of entries) expect(entry.name.startsWith('Gita_ 2025_26/')).toBe(true);
    const byName = new Map(entries.map((e) => [e.name.split('/')[1], e]));
    expect([...byName.keys()].sort()).toEqual(
      [
        'PHOTO (3).JPG',
        'empty.txt',
        'notes.txt',
        'perché è così.pdf',
        'photo (2).jpg',
        'photo.jpg',
      ].sort(),
    );
    expect(byName.get('photo.jpg')?.method).toBe(0);
    expect(byName.get('perché è così.pdf')?.method).toBe(0);
    expect(byName.get('notes.txt')?.method).toBe(8);

    const mail = await smtp.waitFor((m) => m.to.includes(world.users.owner.email ?? ''));
    expect(mail.subject).toContain('Gita: 2025/26');
    expect(mail.text).toContain(`/teams/${world.team.id}/downloads/${ready.requestId}/download`);
    // The link names its collection, so the sign-in page of a reader not signed in can say it.
    const mailLink = /https?:\/\/\S+\/download\?\S+/.exec(mail.text)?.[0] ?? '';
    expect(new URL(mailLink).searchParams.get('collection')).toBe('Gita: 2025/26');
  });

  it('splits a collection over the part size into zips that each open and together hold every file', async () => {
    const collection = await newCollection('Big');
    const files: FileRow[] = [];
    for (let i = 0; i < 7; i++)
      files.push(await store(collection, `IMG_${i}.jpg`, randomBytes(300_000)));
    // Bigger than a part: a part of its own.
    files.push(await store(collection, 'video.mp4', randomBytes(MiB + 100_000), 'video/mp4'));
    files.push(await store(collection, 'IMG_last.jpg', randomBytes(300_000)));

    const { requestId } = await owner.request(world.team.id, { collectionId: collection.id });
    const ready = await owner.settled(world.team.id, requestId);
    expect(ready.status).toBe('ready');
    expect(ready.totalParts).toBeGreaterThanOrEqual(4);
    expect(ready.parts).toHaveLength(ready.totalParts ?? 0);

    // A download of several parts has no single link.
    const whole = await owner.link(world.team.id, requestId);
    expect(whole.statusCode).toBe(400);
    expect(whole.json()).toMatchObject({ errorCode: 'invalidDownload' });

    const all: ZipListing[] = [];
    for (const part of ready.parts) {
      const info = await owner.call(
        'GET',
        `/teams/${world.team.id}/downloads/${requestId}/parts/${part.partId}`,
      );
      expect(info.json()).toEqual(part);
      const res = await owner.fetchLink(await owner.link(world.team.id, requestId, part.partId));
      expect(String(res.headers['content-disposition'])).toContain(
        `part ${part.partId} of ${ready.totalParts}`,
      );
      const entries = await inspectZip(await zips.save(`part-${part.partId}.zip`, res.rawPayload));
      expect(entries).toHaveLength(part.fileCount);
      if (entries.some((e) => e.name.endsWith('video.mp4'))) expect(entries).toHaveLength(1);
      else expect(res.rawPayload.length).toBeLessThanOrEqual(MiB);
      all.push(...entries);
    }
    expectSameFiles(all, files);
    const missing = await owner.link(world.team.id, requestId, (ready.totalParts ?? 0) + 1);
    expect(missing.statusCode).toBe(404);
  });

  it('packs the largest files first into the fewest parts, all saved under one name', async () => {
    // In upload order, cut where a part is full, these would be three parts: 400 | 700 + 300 | 600.
    const collection = await newCollection('Wedding photos');
    const files = [
      await store(collection, 'arrival.jpg', randomBytes(400_000)),
      await store(collection, 'vows.jpg', randomBytes(700_000)),
      await store(collection, 'rings.jpg', randomBytes(300_000)),
      await store(collection, 'dance.jpg', randomBytes(600_000)),
    ];
    const { requestId, createdAt } = await owner.request(world.team.id, {
      collectionId: collection.id,
    });
    const ready = await owner.settled(world.team.id, requestId);
    expect(ready).toMatchObject({ status: 'ready', totalParts: 2, readyParts: 2, fileCount: 4 });
    expect(ready.parts.map((part) => part.fileCount)).toEqual([2, 2]);

    const all: ZipListing[] = [];
    const names: string[] = [];
    for (const part of ready.parts) {
      // Each part's link asked for later than the last, on a clock at UTC−5.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const query = `?localTime=${localClock(server.ctx.clock(), -5)}`;
      const res = await owner.fetchLink(
        await owner.link(world.team.id, requestId, part.partId, query),
      );
      names.push(savedName(res.headers['content-disposition']));
      expect(res.rawPayload.length).toBeLessThanOrEqual(MiB);
      const entries = await inspectZip(
        await zips.save(`wedding-${part.partId}.zip`, res.rawPayload),
      );
      expect(entries).toHaveLength(part.fileCount);
      all.push(...entries);
    }
    const stamp = localClock(Date.parse(createdAt), -5);
    expect(names).toEqual([
      `${stamp} Wedding photos (part 1 of 2).zip`,
      `${stamp} Wedding photos (part 2 of 2).zip`,
    ]);
    expectSameFiles(all, files);
    // Largest first: the 700 kB photo with the 300 kB one, the 600 kB with the 400 kB.
    expect(all.map((entry) => entry.name)).toEqual([
      'Wedding photos/vows.jpg',
      'Wedding photos/rings.jpg',
      'Wedding photos/arrival.jpg',
      'Wedding photos/dance.jpg',
    ]);
  });

  it('keeps only the files selected by prefix or ids, and refuses a selection with no file', async () => {
    const collection = await newCollection('Mixed');
    const img = [
      await store(collection, 'IMG_1.jpg', randomBytes(1000)),
      await store(collection, 'IMG_2.jpg', randomBytes(1000)),
    ];
    const doc = await store(collection, 'doc%_.txt', text(10), 'text/plain');
    const other = await newCollection('Elsewhere');
    const foreign = await store(other, 'IMG_9.jpg', randomBytes(1000));

    const byPrefix = await owner.settled(
      world.team.id,
      (await owner.request(world.team.id, { collectionId: collection.id, prefix: 'IMG_' }))
        .requestId,
    );
    expect(byPrefix.fileCount).toBe(2);
    const prefixed = await inspectZip(
      await zips.save(
        'prefix.zip',
        (await owner.fetchLink(await owner.link(world.team.id, byPrefix.requestId))).rawPayload,
      ),
    );
    expectSameFiles(prefixed, img);

    // LIKE wildcards in a prefix match themselves only.
    const literal = await owner.request(world.team.id, {
      collectionId: collection.id,
      prefix: 'doc%_',
    });
    expect(literal.fileCount).toBe(1);
    const wildcard = await owner.call('POST', `/teams/${world.team.id}/downloads`, {
      collectionId: collection.id,
      prefix: '%',
    });
    expect(wildcard.statusCode).toBe(400);
    expect(wildcard.json()).toMatchObject({ errorCode: 'nothingToDownload' });

    const byIds = await owner.settled(
      world.team.id,
      (
        await owner.request(world.team.id, {
          collectionId: collection.id,
          fileIds: [doc.id, img[0]?.id, foreign.id],
        })
      ).requestId,
    );
    expect(byIds.fileCount).toBe(2);
    const picked = await inspectZip(
      await zips.save(
        'ids.zip',
        (await owner.fetchLink(await owner.link(world.team.id, byIds.requestId))).rawPayload,
      ),
    );
    expectSameFiles(picked, [doc, img[0] as FileRow]);

    const empty = await newCollection('Empty');
    const none = await owner.call('POST', `/teams/${world.team.id}/downloads`, {
      collectionId: empty.id,
    });
    expect(none.json()).toMatchObject({ statusCode: 400, errorCode: 'nothingToDownload' });
    for (const bad of [
      {},
      { collectionId: 'x' },
      { collectionId: empty.id, fileIds: [] },
      { collectionId: empty.id, extra: 1 },
    ]) {
      const res = await owner.call('POST', `/teams/${world.team.id}/downloads`, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('leaves out a file deleted after the request, and a file whose bytes are gone', async () => {
    const collection = await newCollection('Shrinking');
    const kept = await store(collection, 'kept.jpg', randomBytes(5000));
    const deleted = await store(collection, 'deleted.jpg', randomBytes(5000));
    const lost = await store(collection, 'lost.jpg', randomBytes(5000));
    await server.ctx.storage.delete(lost.storage_key);
    const noWorker = await owner.request(world.team.id, { collectionId: collection.id });
    await server.ctx.db.deleteFrom('files').where('id', '=', deleted.id).execute();
    const ready = await owner.settled(world.team.id, noWorker.requestId);
    expect(ready).toMatchObject({ status: 'ready', fileCount: 1 });
    const entries = await inspectZip(
      await zips.save(
        'shrunk.zip',
        (await owner.fetchLink(await owner.link(world.team.id, ready.requestId))).rawPayload,
      ),
    );
    expectSameFiles(entries, [kept]);
  });

  it('expires: the parts are deleted, the status says so and the link answers downloadExpired', async () => {
    const collection = await newCollection('Short-lived');
    await store(collection, 'a.jpg', randomBytes(1000));
    const { requestId } = await owner.request(world.team.id, { collectionId: collection.id });
    const ready = await owner.settled(world.team.id, requestId);
    expect(ready.status).toBe('ready');
    expect(await server.ctx.storage.stat(partKey(requestId, 1))).not.toBeNull();

    const run = expireDownloadsJob.prepare({});
    await run({ ...server.ctx, clock: () => Date.now() + 2 * DAY }, jobRun(1));
    expect(await server.ctx.storage.stat(partKey(requestId, 1))).not.toBeNull();
    await run({ ...server.ctx, clock: () => Date.now() + 4 * DAY }, jobRun(1));
    expect(await server.ctx.storage.stat(partKey(requestId, 1))).toBeNull();

    const expired = (await owner.get(world.team.id, requestId)).json<Download>();
    expect(expired).toMatchObject({ status: 'expired', readyParts: 0, parts: [] });
    const link = await owner.link(world.team.id, requestId);
    expect(link.statusCode).toBe(410);
    expect(link.json()).toMatchObject({ errorCode: 'downloadExpired' });
    const part = await owner.link(world.team.id, requestId, 1);
    expect(part.statusCode).toBe(410);
  });
});

describe('collection downloads without a worker', () => {
  let server: TestServer;
  let world: World;
  let owner: DownloadsClient;
  let collection: CollectionRow;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
    world = await buildWorld(server.ctx);
    owner = await downloadsClient(server, world.users.owner);
    collection = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.owner.id,
      mode: 'owned',
      name: 'Waiting',
    });
    await createStoredFile(server.ctx, { collection, uploadedBy: world.users.owner.id });
  });
  afterAll(() => server.close());

  it('answers the download in progress when the same one is requested again, and bounds how many run', async () => {
    const first = await owner.request(world.team.id, { collectionId: collection.id });
    const again = await owner.request(world.team.id, { collectionId: collection.id });
    expect(again.requestId).toBe(first.requestId);
    expect((await owner.link(world.team.id, first.requestId)).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'downloadNotReady',
    });
    const prefixes = ['f', 'fi', 'fil', 'file'];
    for (const prefix of prefixes)
      await owner.request(world.team.id, { collectionId: collection.id, prefix });
    const sixth = await owner.call('POST', `/teams/${world.team.id}/downloads`, {
      collectionId: collection.id,
      prefix: 'file-',
    });
    expect(sixth.json()).toMatchObject({ statusCode: 429, errorCode: 'tooManyRequests' });
    const rows = await server.ctx.db.selectFrom('downloads').select('id').execute();
    expect(rows).toHaveLength(5);
  });

  it('reports a build that keeps failing as failed, with no part offered', async () => {
    const broken = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.owner.id,
      mode: 'owned',
      name: 'Broken',
    });
    const file = await createStoredFile(server.ctx, {
      collection: broken,
      uploadedBy: world.users.owner.id,
    });
    // The stored object is not the size the row says: the archive would be wrong, so it fails.
    await server.ctx.db
      .updateTable('files')
      .set({ size: file.size + 10 })
      .where('id', '=', file.id)
      .execute();
    const viewer = await downloadsClient(server, world.users.viewer);
    const { requestId } = await viewer.request(world.team.id, { collectionId: broken.id });
    const build = buildDownloadJob.prepare({ downloadId: requestId });

    await expect(build(server.ctx, jobRun(1))).rejects.toThrow();
    expect((await viewer.get(world.team.id, requestId)).json()).toMatchObject({
      status: 'inProgress',
    });
    await expect(build(server.ctx, jobRun(5))).rejects.toThrow();
    const failed = (await viewer.get(world.team.id, requestId)).json<Download>();
    expect(failed).toMatchObject({ status: 'failed', readyParts: 0, parts: [] });
    // The requester, who may have left the page, is told by e-mail and pointed back to the collection.
    const mails = await server.ctx.db
      .selectFrom('jobs')
      .select('payload')
      .where('queue', '=', 'mail.send')
      .execute();
    const told = mails
      .map((m) => JSON.parse(m.payload) as { to: string; template: string; vars: { link: string } })
      .filter((m) => m.template === 'downloadFailed');
    expect(told).toHaveLength(1);
    expect(told[0]?.to).toBe(world.users.viewer.email);
    expect(told[0]?.vars.link).toContain(`/teams/${world.team.id}/collections/${broken.id}`);
    const link = await viewer.link(world.team.id, requestId, 1);
    expect(link.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidDownload' });
    // Nothing half-written is left: the sweep removes whatever the failed build stored.
    await expireDownloadsJob.prepare({})(server.ctx, jobRun(1));
    expect(await server.ctx.storage.stat(partKey(requestId, 1))).toBeNull();
    // A later request starts afresh.
    const again = await viewer.request(world.team.id, { collectionId: broken.id });
    expect(again.requestId).not.toBe(requestId);
  });

  it('checks access again on every link: a demoted or disabled requester gets none', async () => {
    const viewer = await downloadsClient(server, world.users.viewer);
    // Collaborative: an uploader sees it, so a demoted requester is refused, not kept in the dark.
    const shared = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.owner.id,
      mode: 'collaborative',
      name: 'Shared',
    });
    await createStoredFile(server.ctx, { collection: shared, uploadedBy: world.users.owner.id });
    const { requestId } = await viewer.request(world.team.id, { collectionId: shared.id });
    await buildDownloadJob.prepare({ downloadId: requestId })(server.ctx, jobRun(1));
    expect((await viewer.link(world.team.id, requestId)).statusCode).toBe(200);
    // By alias as well as by id.
    expect((await viewer.link(world.team.alias ?? world.team.id, requestId)).statusCode).toBe(200);
    // Another member, even the owner, does not see someone else's download.
    expect((await owner.get(world.team.id, requestId)).statusCode).toBe(404);

    const setRole = (role: 'uploader' | 'viewer', status: 'active' | 'disabled' = 'active') =>
      server.ctx.db
        .updateTable('team_members')
        .set({ role, status })
        .where('team_id', '=', world.team.id)
        .where('user_id', '=', world.users.viewer.id)
        .execute();
    await setRole('uploader');
    const demoted = await viewer.link(world.team.id, requestId);
    expect(demoted.json()).toMatchObject({ statusCode: 403, errorCode: 'forbidden' });
    await setRole('viewer', 'disabled');
    expect((await viewer.link(world.team.id, requestId)).statusCode).toBe(404);
    expect((await viewer.get(world.team.id, requestId)).statusCode).toBe(404);
    await setRole('viewer');
    expect((await viewer.link(world.team.id, requestId)).statusCode).toBe(200);
  });
});
