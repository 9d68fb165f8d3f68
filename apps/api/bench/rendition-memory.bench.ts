// Memory of the rendition job: ten 150 MB uncompressed TIFFs rendered by the worker of a real API
// process (local storage, WORKER_CONCURRENCY 2, as deployed), plain and then encrypted (`.enc`, the
// premium plan's), while the process's resident set is sampled every 20 ms. Goal: the peak grows
// by less than 150 MB over the idle process (ratio: growth against that goal, LOWER IS BETTER).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/db/ids.js';
import { fileKeys } from '../src/files/files.keys.js';
import type { FileRow } from '../src/files/files.repository.js';
import { renderFileJob } from '../src/files/renditions.job.js';
import { enqueueJob } from '../src/jobs/enqueue.js';
import { createContext } from '../src/runtime.js';
import type { AppContext } from '../src/context.js';
import { createCollection } from '../test/files/files-world.js';
import { startApiProcess, type ApiProcess } from '../test/helpers/api-process.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import type { BenchRow } from './file-list.bench.js';

const FILES = Number(process.env.BENCH_RENDITION_FILES ?? 10);
/** 7072 × 7072 × 3 bytes: 150 MB of pixels, stored uncompressed. */
const SIDE = 7072;
const GOAL_MB = 150;
const MB = 1024 ** 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TIFF of `side`² noisy pixels (new noise each call), uncompressed. */
function tiff(side: number): Promise<Buffer> {
  return sharp({
    create: {
      width: side,
      height: side,
      channels: 3,
      background: '#000000',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .tiff({ compression: 'none' })
    .toBuffer();
}

/** An uploaded TIFF waiting for its rendition, as a commit leaves it (its job not yet queued). */
async function storeTiff(
  ctx: AppContext,
  where: { teamId: string; collectionId: string; ownerId: string },
  data: Buffer,
  encrypted: boolean,
): Promise<string> {
  const id = newId();
  const keys = fileKeys({
    teamId: where.teamId,
    collectionId: where.collectionId,
    fileId: id,
    encrypted,
  });
  const stored = await ctx.storage.put(keys.original, Readable.from([data]));
  const at = ctx.clock();
  const row: FileRow = {
    id,
    team_id: where.teamId,
    collection_id: where.collectionId,
    name: `scan-${id.slice(-6)}.tif`,
    original_name: `scan-${id.slice(-6)}.tif`,
    content_type: 'image/tiff',
    size: data.length,
    sha256: stored.sha256 ?? '',
    received_sha256: stored.sha256 ?? '',
    storage_key: keys.original,
    uploaded_by: where.ownerId,
    rendition_status: 'pending',
    thumbnail_key: null,
    preview_key: null,
    width: null,
    height: null,
    created_at: at,
    updated_at: at,
    damaged_at: null,
    link_id: null,
    guest_id: null,
    guest_name: null,
    guest_email: null,
    late: 0,
  };
  await ctx.db.insertInto('files').values(row).execute();
  return id;
}

/** Queues the files' jobs, then waits until the API's worker has settled every one. */
async function renderAll(ctx: AppContext, ids: string[]): Promise<number> {
  const started = performance.now();
  for (const fileId of ids)
    await enqueueJob(ctx.db, renderFileJob, { payload: { fileId } }, ctx.clock);
  for (;;) {
    const rows = await ctx.db
      .selectFrom('files')
      .select(['id', 'rendition_status'])
      .where('id', 'in', ids)
      .execute();
    const failed = rows.filter((r) => r.rendition_status === 'failed');
    if (failed.length) throw new Error(`${failed.length} renditions failed`);
    if (rows.every((r) => r.rendition_status === 'ready')) return performance.now() - started;
    await sleep(100);
  }
}

export async function benchRenditionMemory(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-renditions-'));
  const env = {
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    PUBLIC_URL: 'http://raccolta.bench',
    JOB_POLL_MS: '10',
  };
  const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent', SERVE_WEB: 'false' }));
  let api: ApiProcess | null = null;
  try {
    const owner = await createUser(ctx, { email: 'bench@example.com', nickname: 'Bench' });
    const team = await createTeam(ctx, { owner });
    const collection = await createCollection(ctx, {
      teamId: team.id,
      createdBy: owner.id,
      mode: 'owned',
      name: 'Scans',
    });
    const where = { teamId: team.id, collectionId: collection.id, ownerId: owner.id };
    const warmUp = [
      await storeTiff(ctx, where, await tiff(1000), false),
      await storeTiff(ctx, where, await tiff(1000), true),
    ];
    const batches: { label: string; ids: string[] }[] = [];
    for (const encrypted of [false, true]) {
      const ids: string[] = [];
      for (let i = 0; i < FILES; i++)
        ids.push(await storeTiff(ctx, where, await tiff(SIDE), encrypted));
      batches.push({ label: encrypted ? 'encrypted (.enc)' : 'plain', ids });
    }

    // As deployed (deploy/systemd): two malloc arenas.
    api = await startApiProcess({ ...env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' });
    const running = api;
    // The worker's code paths and sharp loaded, both kinds of object read once.
    await renderAll(ctx, warmUp);
    await sleep(500);

    // Growth is counted from the idle process for both batches: memory the first batch leaves
    // resident counts against the second too.
    const rssIdle = await running.rss();
    const rows: BenchRow[] = [];
    for (const batch of batches) {
      const rssBefore = await running.rss();
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        void running.rss().then((rss) => (rssPeak = Math.max(rssPeak, rss)));
      }, 20);
      let ms: number;
      try {
        ms = await renderAll(ctx, batch.ids);
      } finally {
        clearInterval(sampler);
      }
      await sleep(100);
      const growthMb = (rssPeak - rssIdle) / MB;
      console.log(
        `  ${FILES} × ${SIDE}×${SIDE} TIFF (${((SIDE * SIDE * 3) / 1e6).toFixed(0)} MB), ${batch.label}: ` +
          `${(ms / 1000).toFixed(1)} s; API RSS idle ${(rssIdle / MB).toFixed(0)} MB, ${(rssBefore / MB).toFixed(0)} MB at the start → peak ${(rssPeak / MB).toFixed(0)} MB (+${growthMb.toFixed(0)} MB)`,
      );
      rows.push({
        name: `RSS growth, ${batch.label} (vs ${GOAL_MB} MB goal)`,
        ms: growthMb,
        ratio: growthMb / GOAL_MB,
        unit: 'MB',
      });
      rows.push({ name: `time per image, ${batch.label}`, ms: ms / FILES, ratio: 1 });
    }
    return rows;
  } finally {
    await api?.stop();
    await ctx.db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
