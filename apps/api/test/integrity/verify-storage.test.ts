/**
 * The storage integrity check on local disk and on S3 (s3rver), on the real app's database:
 * faults planted in the store behind the app's back are each found and named, and nothing else;
 * a stopped run goes on where it stopped; reads keep to the rate bound.
 */
import { randomBytes } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { trashFile } from '../../src/trash/trash.service.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { accessToken } from '../members/world.js';
import type { CollectionRow } from '../../src/db/rows.js';
import { runAdminCommand } from '../../src/cli/admin-commands.js';
import { loadConfig } from '../../src/config/config.js';
import type { FileRow } from '../../src/files/files.repository.js';
import { verifyStorage, type VerifyStorageReport } from '../../src/integrity/verify-storage.js';
import { verifyStorageJob, verifyStorageSchedule } from '../../src/integrity/verify-storage.job.js';
import { schedulesFor } from '../../src/job-registry.js';
import { readAll } from '../../src/storage/testing/helpers.js';
import { createTeam, createUser } from '../helpers/factories.js';
import { createCollection, createStoredFile } from '../files/files-world.js';
import {
  rawStorage,
  STORAGE_KINDS,
  startUploadServer,
  type UploadServer,
} from '../uploads/tus-world.js';

const HOUR = 60 * 60_000;
const MIB = 1024 * 1024;

/** Sets an object's time of writing in the past, as the store itself keeps it. */
async function age(server: UploadServer, key: string, ms: number): Promise<void> {
  const when = new Date(Date.now() - ms);
  const { storage } = server.config;
  if (storage.kind === 'local') {
    await utimes(path.join(storage.root, ...key.split('/')), when, when);
    return;
  }
  if (!server.s3) throw new Error('no s3 server');
  const parts = `${storage.prefix}${key}`.split('/');
  const last = parts.pop() ?? '';
  const file = path.join(server.s3.directory, storage.bucket, ...parts, `${last}._S3rver_object`);
  await utimes(file, when, when);
}

async function bytesOf(server: UploadServer, key: string): Promise<Buffer> {
  return readAll(await server.ctx.storage.get(key));
}

async function overwrite(server: UploadServer, key: string, data: Buffer): Promise<void> {
  await server.ctx.storage.put(key, Readable.from([data]));
}

function named(report: VerifyStorageReport) {
  return report.findings.map((f) => ({ kind: f.kind, key: f.key, fileId: f.fileId }));
}

describe.each(STORAGE_KINDS)('verify-storage on %s storage', (kind) => {
  let server: UploadServer;
  let collection: CollectionRow;
  let ownerId: string;
  let owner: UserRow;
  let teamId: string;

  async function storedFile(data?: Buffer, renditions = false): Promise<FileRow> {
    return createStoredFile(server.ctx, {
      collection,
      uploadedBy: ownerId,
      data: data ?? randomBytes(20_000),
      renditions,
      ...(renditions ? { contentType: 'image/png', name: 'photo.png' } : {}),
    });
  }

  /** A file stored encrypted (the premium plan's `.enc` keys): its row's SHA-256 is the plain one. */
  async function encryptedFile(): Promise<FileRow> {
    const file = await storedFile();
    const plain = await bytesOf(server, file.storage_key);
    const key = `${file.storage_key}.enc`;
    await overwrite(server, key, plain);
    await server.ctx.storage.delete(file.storage_key);
    await server.ctx.db
      .updateTable('files')
      .set({ storage_key: key })
      .where('id', '=', file.id)
      .execute();
    return { ...file, storage_key: key };
  }

  async function clearFiles(): Promise<void> {
    await server.ctx.db.deleteFrom('files').execute();
    await server.ctx.db.deleteFrom('trash').execute();
    await server.ctx.db.deleteFrom('storage_findings').execute();
  }

  beforeAll(async () => {
    server = await startUploadServer(kind, { VERIFY_STORAGE_MAX_MB_PER_SECOND: '0' });
    owner = await createUser(server.ctx, { email: `owner-${kind}@example.test` });
    ownerId = owner.id;
    teamId = (await createTeam(server.ctx, { owner, name: 'Archive team' })).id;
    collection = await createCollection(server.ctx, {
      teamId,
      createdBy: ownerId,
      mode: 'collaborative',
      name: 'Holiday photos',
    });
  });
  afterEach(clearFiles);
  afterAll(() => server.close());

  it('finds each planted fault, names it, and reports nothing about good files', async () => {
    const good = [await storedFile(), await storedFile(undefined, true), await encryptedFile()];
    const flipped = await storedFile();
    const flippedEncrypted = await encryptedFile();
    const deleted = await storedFile();
    const truncated = await storedFile(undefined, true);
    for (const file of [...good, flipped, deleted, truncated])
      await age(server, file.storage_key, 2 * HOUR);
    for (const file of [good[1], truncated])
      for (const key of [file?.thumbnail_key, file?.preview_key])
        if (key) await age(server, key, 2 * HOUR);

    // A good store first: nothing to report.
    const clean = await verifyStorage(server.ctx, { orphanGraceMs: HOUR });
    expect(clean.complete).toBe(true);
    expect(clean.findings).toEqual([]);
    expect(clean.filesChecked).toBe(7);

    // A flipped byte, same size.
    const original = await bytesOf(server, flipped.storage_key);
    const damaged = Buffer.from(original);
    damaged[1234] = (damaged[1234] ?? 0) ^ 0x01;
    await overwrite(server, flipped.storage_key, damaged);
    // A flipped byte in an encrypted object's ciphertext, behind the encryption layer's back.
    const raw = rawStorage(server);
    const sealed = Buffer.from(await readAll(await raw.get(flippedEncrypted.storage_key)));
    sealed[sealed.length - 10] = (sealed[sealed.length - 10] ?? 0) ^ 0x80;
    await raw.put(flippedEncrypted.storage_key, Readable.from([sealed]));
    // A deleted original.
    await server.ctx.storage.delete(deleted.storage_key);
    // A truncated thumbnail.
    const thumbnailKey = truncated.thumbnail_key ?? '';
    const thumbnail = await bytesOf(server, thumbnailKey);
    await overwrite(server, thumbnailKey, thumbnail.subarray(0, Math.floor(thumbnail.length / 2)));
    // An orphan older than the grace period, and a fresh one (an upload in flight).
    const orphanKey = `teams/${teamId}/collections/${collection.id}/0190a5a0-0000-7000-8000-00000000dead/original`;
    await overwrite(server, orphanKey, randomBytes(3000));
    await age(server, orphanKey, 2 * HOUR);
    await overwrite(
      server,
      `teams/${teamId}/collections/${collection.id}/fresh/original`,
      randomBytes(10),
    );
    // Claimed although no file refers to them: queued for deletion, and an upload in progress.
    const queuedKey = `teams/${teamId}/collections/${collection.id}/queued/original`;
    await overwrite(server, queuedKey, randomBytes(10));
    await age(server, queuedKey, 2 * HOUR);
    await server.ctx.db
      .insertInto('storage_deletions')
      .values({ key: queuedKey, queued_at: Date.now() })
      .execute();
    // A file in the trash: no `files` row, its objects kept until it is purged.
    const trashed = await storedFile(undefined, true);
    for (const key of [trashed.storage_key, trashed.thumbnail_key, trashed.preview_key])
      if (key) await age(server, key, 2 * HOUR);
    await trashFile(server.ctx.db, {
      file: trashed,
      collectionName: collection.name,
      actorId: ownerId,
      now: Date.now(),
    });
    await server.ctx.db.deleteFrom('files').where('id', '=', trashed.id).execute();

    const report = await verifyStorage(server.ctx, { orphanGraceMs: HOUR });
    expect(report.complete).toBe(true);
    expect(report.resumed).toBe(false);
    expect(report.counts).toEqual({ damaged: 2, missing: 1, rendition: 1, orphan: 1 });
    expect(
      named(report).sort((a, b) => a.kind.localeCompare(b.kind) || a.key.localeCompare(b.key)),
    ).toEqual([
      ...[flipped, flippedEncrypted]
        .map((f) => ({ kind: 'damaged', key: f.storage_key, fileId: f.id }))
        .sort((a, b) => a.key.localeCompare(b.key)),
      { kind: 'missing', key: deleted.storage_key, fileId: deleted.id },
      { kind: 'orphan', key: orphanKey, fileId: null },
      { kind: 'rendition', key: thumbnailKey, fileId: truncated.id },
    ]);
    const damagedFinding = report.findings.find((f) => f.key === flipped.storage_key);
    expect(damagedFinding).toMatchObject({
      collectionId: collection.id,
      collectionName: 'Holiday photos',
      teamId,
      teamName: 'Archive team',
    });
    expect(damagedFinding?.detail).toMatch(/SHA-256/);

    // The lists show the files whose originals are damaged or missing as damaged, only those.
    const damagedAt = async (id: string) =>
      (
        await server.ctx.db
          .selectFrom('files')
          .select('damaged_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).damaged_at;
    for (const file of [flipped, flippedEncrypted, deleted])
      expect(await damagedAt(file.id), file.name).toEqual(expect.any(Number));
    for (const file of [...good, truncated]) expect(await damagedAt(file.id)).toBeNull();
    const listed = await server.app.inject({
      method: 'GET',
      url: `/api/teams/${teamId}/collections/${collection.id}/files?limit=20`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, owner)}` },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const shown = new Map(
      listed
        .json<{ files: { fileId: string; damaged: boolean }[] }>()
        .files.map((f) => [f.fileId, f.damaged]),
    );
    expect(shown.get(flipped.id)).toBe(true);
    expect(shown.get(deleted.id)).toBe(true);
    expect(shown.get(truncated.id)).toBe(false);
    expect(shown.get(good[0]?.id ?? '')).toBe(false);

    // The command prints the same, says nothing was deleted, and deletes nothing.
    const text = await runAdminCommand(server.ctx, ['verify-storage', '--grace-hours', '1']);
    expect(text).toMatch(/FOUND 5 problem\(s\): 2 damaged, 1 missing, 1 rendition, 1 orphan/);
    expect(text).toMatch(/Nothing was deleted/);
    for (const key of [flipped.storage_key, deleted.storage_key, orphanKey, thumbnailKey])
      expect(text).toContain(key);
    expect(text).toContain('"Holiday photos"');
    expect(await server.ctx.storage.stat(orphanKey)).not.toBeNull();
    expect(await server.ctx.storage.stat(queuedKey)).not.toBeNull();
    await expect(
      runAdminCommand(server.ctx, ['verify-storage', '--grace-hours', 'soon']),
    ).rejects.toThrow(/verify-storage takes only --grace-hours <hours>/);

    // A finding stays until a later run finds the file good, and goes then.
    await overwrite(server, flipped.storage_key, original);
    await server.ctx.storage.delete(orphanKey);
    const after = await verifyStorage(server.ctx, { orphanGraceMs: HOUR });
    expect(
      named(after)
        .map((f) => f.kind)
        .sort(),
    ).toEqual(['damaged', 'missing', 'rendition']);
    expect(await damagedAt(flipped.id)).toBeNull();
    expect(await damagedAt(deleted.id)).toEqual(expect.any(Number));
  });

  it('goes on where a stopped run stopped, without reading the files it checked again', async () => {
    await verifyStorage(server.ctx); // ends any run left open
    const files: FileRow[] = [];
    for (let i = 0; i < 6; i++) files.push(await storedFile());
    files.sort((a, b) => (a.id < b.id ? -1 : 1));
    const stop = new AbortController();
    let seen = 0;
    const first = await verifyStorage(server.ctx, {
      signal: stop.signal,
      batchSize: 2,
      onFileChecked: () => {
        if (++seen === 3) stop.abort();
      },
    });
    expect(first).toMatchObject({ complete: false, filesChecked: 3, filesCheckedNow: 3 });

    // Damage one file the run has checked and one it has not reached.
    for (const file of [files[1], files[4]]) {
      if (!file) throw new Error('six files');
      const bytes = Buffer.from(await bytesOf(server, file.storage_key));
      bytes[0] = (bytes[0] ?? 0) ^ 0xff;
      await overwrite(server, file.storage_key, bytes);
    }
    const checked: string[] = [];
    const second = await verifyStorage(server.ctx, {
      batchSize: 2,
      onFileChecked: (id) => checked.push(id),
    });
    expect(second).toMatchObject({ runId: first.runId, resumed: true, complete: true });
    expect(second.filesChecked).toBe(6);
    expect(checked).toEqual(files.slice(3).map((f) => f.id));
    expect(named(second)).toEqual([
      { kind: 'damaged', key: files[4]?.storage_key, fileId: files[4]?.id },
    ]);

    // The next run is a new one, from the first file.
    const third = await verifyStorage(server.ctx);
    expect(third.runId).not.toBe(first.runId);
    expect(third.resumed).toBe(false);
    expect(
      named(third)
        .map((f) => f.fileId)
        .sort(),
    ).toEqual([files[1]?.id, files[4]?.id].sort());
  });

  it('keeps to VERIFY_STORAGE_MAX_MB_PER_SECOND', async () => {
    await verifyStorage(server.ctx);
    for (let i = 0; i < 3; i++) await storedFile(randomBytes(MIB));
    const unbounded = performance.now();
    await verifyStorage(server.ctx, { maxBytesPerSecond: 0 });
    const fast = performance.now() - unbounded;

    const started = performance.now();
    const report = await verifyStorage(server.ctx, { maxBytesPerSecond: 2 * MIB });
    const slow = performance.now() - started;
    expect(report.bytesRead).toBe(3 * MIB);
    // 3 MiB at 2 MiB/s: about 1.5 s, whatever the disk could do.
    expect(slow).toBeGreaterThan(1400);
    expect(fast).toBeLessThan(slow);
  });

  it('resumes in the scheduled job after a worker stopped mid-run', async () => {
    await verifyStorage(server.ctx);
    for (let i = 0; i < 6; i++) await storedFile(randomBytes(256 * 1024));
    // 1.5 MiB at 1 MiB/s: stopped after about half.
    const limited = {
      ...server.ctx,
      config: { ...server.config, integrity: { intervalMs: 0, maxBytesPerSecond: MIB } },
    };
    const lost = new AbortController();
    setTimeout(() => lost.abort(), 700);
    const run = (signal: AbortSignal) => ({
      id: 'job',
      queue: verifyStorageJob.queue,
      attempt: 1,
      maxAttempts: 3,
      createdAt: Date.now(),
      signal,
    });
    await expect(verifyStorageJob.prepare({})(limited, run(lost.signal))).rejects.toThrow();
    const stored = await server.ctx.db
      .selectFrom('storage_verification_runs')
      .selectAll()
      .where('phase', '!=', 'done')
      .executeTakeFirstOrThrow();
    expect(stored.files_checked).toBeGreaterThan(0);
    expect(stored.files_checked).toBeLessThan(6);

    await verifyStorageJob.prepare({})(server.ctx, run(new AbortController().signal));
    const done = await server.ctx.db
      .selectFrom('storage_verification_runs')
      .selectAll()
      .where('id', '=', stored.id)
      .executeTakeFirstOrThrow();
    expect(done).toMatchObject({ phase: 'done', files_checked: 6, bytes_read: 6 * 256 * 1024 });
  });
});

describe('the verify-storage schedule', () => {
  it('is off unless VERIFY_STORAGE_INTERVAL_HOURS is set', () => {
    const base = { APP_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/raccolta-verify-config' };
    const off = loadConfig(base);
    expect(off.integrity).toEqual({ intervalMs: 0, maxBytesPerSecond: 50 * MIB });
    expect(verifyStorageSchedule(off)).toBeNull();
    expect(schedulesFor(off).map((s) => s.queue)).not.toContain('storage.verify');

    const on = loadConfig({
      ...base,
      VERIFY_STORAGE_INTERVAL_HOURS: '24',
      VERIFY_STORAGE_MAX_MB_PER_SECOND: '0',
    });
    expect(on.integrity).toEqual({ intervalMs: 24 * HOUR, maxBytesPerSecond: 0 });
    expect(schedulesFor(on)).toContainEqual({
      queue: 'storage.verify',
      everyMs: 24 * HOUR,
      payload: {},
    });
    expect(() => loadConfig({ ...base, VERIFY_STORAGE_MAX_MB_PER_SECOND: '-1' })).toThrow(
      /VERIFY_STORAGE_MAX_MB_PER_SECOND/,
    );
  });
});
