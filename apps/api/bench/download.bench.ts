// Archiving a collection through the whole stack (request, job, plan, zip streamed into storage)
// against `zip -0 -r` of the same stored files, in the same run.
import type { Download } from '@raccolta/contracts';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { startSession } from '../src/auth/sessions.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/runtime.js';
import { createCollection, createStoredFile } from '../test/files/files-world.js';
import { startApiProcess, type ApiProcess } from '../test/helpers/api-process.js';
import { addMember, createTeam, createUser } from '../test/helpers/factories.js';
import type { BenchRow } from './file-list.bench.js';

const run = promisify(execFile);
const CHILD = path.join(import.meta.dirname, 'zip-writers.child.ts');
/** Writers compared on their own: ours, yazl 3 wrapped as the build uses it, yazl as its README shows. */
const WRITERS = ['own', 'yazl', 'yazl-bare'] as const;
/** Entries of the many-small-files run (a 2 GiB part of 50 KiB documents holds ~40,000). */
const MANY = Number(process.env.BENCH_ZIP_ENTRIES ?? 40_000);
const GIB = 1024 ** 3;
const FILES = Number(process.env.BENCH_DOWNLOAD_FILES ?? 300);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ChildResult {
  ms: number;
  rssGrowthMb: number;
  openAfterCancel?: number;
}

/** One writer, one task, in a process of its own (zip-writers.child.ts). */
async function writerChild(writer: string, ...args: string[]): Promise<ChildResult> {
  const { stdout } = await run(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', CHILD, writer, ...args],
    { maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildResult;
}

/** Requests a download of the collection and waits until it is ready; answers the elapsed ms. */
async function timeDownload(
  api: ApiProcess,
  token: string,
  teamId: string,
  collectionId: string,
): Promise<number> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = performance.now();
  const res = await fetch(`${api.origin}/api/teams/${teamId}/downloads`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ collectionId }),
  });
  if (res.status !== 202) throw new Error(`POST downloads: ${res.status} ${await res.text()}`);
  const { requestId } = (await res.json()) as Download;
  for (;;) {
    const status = (await (
      await fetch(`${api.origin}/api/teams/${teamId}/downloads/${requestId}`, { headers })
    ).json()) as Download;
    if (status.status === 'ready') return performance.now() - started;
    if (status.status !== 'inProgress') throw new Error(`download ${status.status}`);
    // Often enough to time to ±1%, rarely enough not to compete with the build for the CPU
    // (the web app polls every 5 s).
    await sleep(50);
  }
}

export async function benchDownloads(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-download-'));
  const outDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-zip-'));
  const env = {
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    PUBLIC_URL: 'http://raccolta.bench',
    JOB_POLL_MS: '10',
    // One part for the whole collection: the comparison is one archive against one archive.
    DOWNLOAD_PART_MAX_BYTES: String(4 * GIB),
    // Every round builds its archive anew: the team may hold one per round.
    DOWNLOAD_TEAM_BUDGET_FACTOR: '100',
  };
  const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent', SERVE_WEB: 'false' }));
  const owner = await createUser(ctx, { email: 'bench@example.com', nickname: 'Bench' });
  const team = await createTeam(ctx, { owner });
  const collection = await createCollection(ctx, {
    teamId: team.id,
    createdBy: owner.id,
    mode: 'owned',
    name: 'Photos',
  });
  // 300 "photos" of about 3.4 MiB each: 1 GiB of incompressible bytes, stored as they are.
  const size = Math.floor(GIB / FILES);
  const block = randomBytes(size + 4096);
  for (let i = 0; i < FILES; i++)
    await createStoredFile(ctx, {
      collection,
      uploadedBy: owner.id,
      name: `IMG_${String(i).padStart(4, '0')}.jpg`,
      contentType: 'image/jpeg',
      data: block.subarray(i % 4096, (i % 4096) + size),
    });
  // A ready archive is answered again to the member who asked for it: each round asks as
  // another admin, so that each builds one (the first, the owner, warms up).
  const tokens = [(await startSession(ctx, owner, { identityProvider: false })).AccessToken];
  for (let round = 0; round < ROUNDS; round++) {
    const admin = await createUser(ctx, {
      email: `admin${round}@example.com`,
      nickname: `Admin ${round}`,
    });
    await addMember(ctx, { teamId: team.id, user: admin, role: 'admin' });
    tokens.push((await startSession(ctx, admin, { identityProvider: false })).AccessToken);
  }
  // The collection's folder on local storage: one folder per file, each holding `original`.
  const folder = path.join(dataDir, 'files', 'teams', team.id, 'collections', collection.id);
  await ctx.db.destroy();

  /** The baseline: zip -0 of the same files, then the archive synced as storage syncs its own. */
  const zipOnce = async (sync: boolean) => {
    const out = path.join(outDir, 'baseline.zip');
    const started = performance.now();
    await run('zip', ['-0', '-r', '-q', out, '.'], { cwd: folder });
    if (sync) await run('sync', [out]);
    const ms = performance.now() - started;
    await rm(out);
    return ms;
  };

  let api: ApiProcess | null = null;
  try {
    api = await startApiProcess(env);
    const running = api;
    // Warm both: the files in the page cache, the API's code paths compiled.
    await zipOnce(false);
    await timeDownload(running, tokens[0] ?? '', team.id, collection.id);

    const rssBefore = await running.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      void running.rss().then((rss) => (rssPeak = Math.max(rssPeak, rss)));
    }, 20);
    const zipSynced: number[] = [];
    const zipPlain: number[] = [];
    const ours: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        zipPlain.push(await zipOnce(false));
        zipSynced.push(await zipOnce(true));
        ours.push(await timeDownload(running, tokens[round + 1] ?? '', team.id, collection.id));
      }
    } finally {
      clearInterval(sampler);
    }
    // The writers on their own, same files, same rounds: 1 GiB to a file (not synced, against
    // the unsynced zip -0), MANY tiny entries to nowhere, and a consumer that cancels 100 MiB in.
    const archiveMs = new Map<string, number[]>(WRITERS.map((w) => [w, []]));
    const archiveRss = new Map<string, number>(WRITERS.map((w) => [w, 0]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const writer of WRITERS) {
        const out = path.join(outDir, `${writer}.zip`);
        const result = await writerChild(writer, 'archive', folder, out);
        await rm(out);
        archiveMs.get(writer)?.push(result.ms);
        archiveRss.set(writer, Math.max(archiveRss.get(writer) ?? 0, result.rssGrowthMb));
      }
    }
    // Cancelling needs files larger than the bytes in flight: 3 of 64 MiB, cancelled 100 MiB in.
    const bigFolder = path.join(outDir, 'big');
    const big = randomBytes(64 * 1024 ** 2);
    for (let i = 0; i < 3; i++) {
      mkdirSync(path.join(bigFolder, `f${i}`), { recursive: true });
      writeFileSync(path.join(bigFolder, `f${i}`, 'original'), big);
    }
    const many = new Map<string, ChildResult>();
    const cancel = new Map<string, ChildResult>();
    for (const writer of WRITERS) {
      many.set(writer, await writerChild(writer, 'many', String(MANY)));
      cancel.set(writer, await writerChild(writer, 'cancel', bigFolder));
    }

    const best = (values: number[]) => Math.min(...values);
    const mbps = (ms: number) => GIB / 1024 ** 2 / (ms / 1000);
    const growthMb = (rssPeak - rssBefore) / 1024 ** 2;
    console.log(
      `  ${FILES} files, 1 GiB: zip -0 ${mbps(best(zipPlain)).toFixed(0)} MiB/s (${mbps(best(zipSynced)).toFixed(0)} MiB/s synced), ` +
        `Raccolta ${mbps(best(ours)).toFixed(0)} MiB/s; ` +
        `API+worker RSS ${(rssBefore / 1024 ** 2).toFixed(0)} MB → peak ${(rssPeak / 1024 ** 2).toFixed(0)} MB (+${growthMb.toFixed(0)} MB)`,
    );
    for (const writer of WRITERS) {
      const ms = best(archiveMs.get(writer) ?? []);
      console.log(
        `  ${writer}: 1 GiB ${mbps(ms).toFixed(0)} MiB/s (x${(best(zipPlain) / ms).toFixed(2)} of zip -0), ` +
          `peak RSS +${(archiveRss.get(writer) ?? 0).toFixed(0)} MB; ` +
          `${MANY.toLocaleString('en')} tiny entries ${(many.get(writer)?.ms ?? 0).toFixed(0)} ms, ` +
          `peak RSS +${(many.get(writer)?.rssGrowthMb ?? 0).toFixed(0)} MB; ` +
          `files left open after a cancel: ${cancel.get(writer)?.openAfterCancel ?? '?'}`,
      );
    }
    const ownMany = many.get('own')?.ms ?? 1;
    const writerRows = WRITERS.flatMap((writer) => [
      {
        name: `writer ${writer}: 1 GiB to a file (ratio: against zip -0 not synced)`,
        ms: best(archiveMs.get(writer) ?? []),
        ratio: best(zipPlain) / best(archiveMs.get(writer) ?? []),
      },
      {
        name: `writer ${writer}: ${MANY.toLocaleString('en')} tiny entries (ratio: against own)`,
        ms: many.get(writer)?.ms ?? 0,
        ratio: ownMany / (many.get(writer)?.ms ?? 1),
      },
    ]);
    return [
      { name: 'zip -0 -r, archive synced (baseline)', ms: best(zipSynced), ratio: 1 },
      {
        name: 'zip -0 -r, not synced',
        ms: best(zipPlain),
        ratio: best(zipSynced) / best(zipPlain),
      },
      {
        name: 'request → ready, through the API (ratio)',
        ms: best(ours),
        ratio: best(zipSynced) / best(ours),
      },
      ...writerRows,
    ];
  } finally {
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}
