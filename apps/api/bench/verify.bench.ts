// The storage integrity check (`npm run admin -- verify-storage`) over originals on local disk
// (1 GiB; BENCH_VERIFY_FILES=160 for 10 GiB), with no rate bound, against `sha256sum` of the same
// files, in alternate rounds after one warm-up of each (both then read from the page cache):
// throughput. Then once more while a client uploads 4 MiB files to the API in the same process,
// against those uploads alone: the check must not stop uploads being served. Goal: at least 0.8×.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { loadConfig } from '../src/config/config.js';
import { createServer } from '../src/server.js';
import { accessToken } from '../test/members/world.js';
import { newId } from '../src/db/ids.js';
import { fileKeys } from '../src/files/files.keys.js';
import { verifyStorage } from '../src/integrity/verify-storage.js';
import { createContext } from '../src/runtime.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import { createCollection } from '../test/files/files-world.js';
import type { BenchRow } from './file-list.bench.js';

const MIB = 1024 * 1024;
const FILES = Number(process.env.BENCH_VERIFY_FILES ?? 16);
const FILE_MIB = 64;
const ROUNDS = Number(process.env.BENCH_VERIFY_ROUNDS ?? 3);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Uploads 4 MiB files one after another until `until` resolves; answers each one's time. */
async function uploadLoop(url: string, token: string, until: Promise<unknown>): Promise<number[]> {
  const state = { done: false };
  void until.finally(() => (state.done = true));
  const data = new Blob([randomBytes(4 * MIB)]);
  const times: number[] = [];
  while (!state.done) {
    const form = new FormData();
    form.append('file', data, `upload-${times.length}.bin`);
    const started = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    times.push(performance.now() - started);
  }
  return times;
}

export async function benchVerify(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-verify-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret',
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    WORKER: 'off',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: 'http://127.0.0.1',
    RATE_LIMIT_MAX: '1000000',
    VERIFY_STORAGE_MAX_MB_PER_SECOND: '0',
  });
  const ctx = await createContext(config);
  const server = await createServer(config, { worker: false });
  try {
    const owner = await createUser(ctx, { email: 'bench@example.test' });
    const team = await createTeam(ctx, { owner });
    const collection = await createCollection(ctx, {
      teamId: team.id,
      createdBy: owner.id,
      mode: 'collaborative',
    });
    const paths: string[] = [];
    const block = randomBytes(MIB);
    for (let i = 0; i < FILES; i++) {
      const id = newId();
      const key = fileKeys({ teamId: team.id, collectionId: collection.id, fileId: id }).original;
      const hash = createHash('sha256');
      const put = await ctx.storage.put(
        key,
        Readable.from(
          (function* () {
            for (let m = 0; m < FILE_MIB; m++) {
              // Each file its own bytes: the first bytes of every MiB name the file and the MiB.
              const chunk = Buffer.from(block);
              chunk.writeUInt32LE(i, 0);
              chunk.writeUInt32LE(m, 4);
              hash.update(chunk);
              yield chunk;
            }
          })(),
        ),
      );
      const now = ctx.clock();
      await ctx.db
        .insertInto('files')
        .values({
          id,
          team_id: team.id,
          collection_id: collection.id,
          name: `file-${i}.bin`,
          original_name: `file-${i}.bin`,
          content_type: 'application/octet-stream',
          size: put.size,
          sha256: hash.digest('hex'),
          storage_key: key,
          uploaded_by: owner.id,
          rendition_status: 'none',
          thumbnail_key: null,
          preview_key: null,
          width: null,
          height: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      paths.push(path.join(dataDir, 'files', ...key.split('/')));
    }
    const bytes = FILES * FILE_MIB * MIB;

    const sha256sum = (): number => {
      const started = performance.now();
      const out = spawnSync('sha256sum', paths, { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`sha256sum failed: ${out.stderr}`);
      return performance.now() - started;
    };
    /** One whole run; answers its time and the bytes it read (uploads add files meanwhile). */
    const verifyRun = async (): Promise<{ ms: number; bytesRead: number }> => {
      const started = performance.now();
      const report = await verifyStorage(ctx, { maxBytesPerSecond: 0 });
      const ms = performance.now() - started;
      if (!report.complete || report.findings.length > 0 || report.bytesRead < bytes)
        throw new Error(`verify-storage found problems: ${JSON.stringify(report.counts)}`);
      return { ms, bytesRead: report.bytesRead };
    };
    const verify = async (): Promise<number> => {
      const run = await verifyRun();
      if (run.bytesRead !== bytes) throw new Error(`read ${run.bytesRead} bytes, not ${bytes}`);
      return run.ms;
    };

    sha256sum();
    await verify();
    const sums: number[] = [];
    const verifies: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sums.push(sha256sum());
      verifies.push(await verify());
    }
    const sumMs = median(sums);
    const verifyMs = median(verifies);
    const mibPerSecond = (ms: number) => bytes / MIB / (ms / 1000);

    // Uploads served while the check runs, against uploads alone for as long.
    const origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    const uploadUrl = `${origin}/api/teams/${team.id}/collections/${collection.id}/files`;
    const token = await accessToken(server.ctx, owner);
    const alone = await uploadLoop(
      uploadUrl,
      token,
      new Promise((resolve) => setTimeout(resolve, verifyMs)),
    );
    const checking = verifyRun();
    const during = await uploadLoop(uploadUrl, token, checking);
    const withUploads = await checking;
    // The files uploaded before and during it are checked too: compared by throughput.
    const verifyWithUploadsMs = (withUploads.ms * bytes) / withUploads.bytesRead;
    const gib = (bytes / 1024 / MIB).toFixed(1);
    console.log(
      `  uploads of 4 MiB: ${alone.length} alone in ${(verifyMs / 1000).toFixed(1)} s (median ${median(alone).toFixed(0)} ms), ${during.length} during the check (median ${median(during).toFixed(0)} ms)`,
    );
    return [
      { name: `sha256sum, ${gib} GiB in ${FILES} files`, ms: sumMs, ratio: 1 },
      { name: 'verify-storage, same files', ms: verifyMs, ratio: sumMs / verifyMs },
      {
        name: 'verify-storage while uploads are served (per same bytes)',
        ms: verifyWithUploadsMs,
        ratio: sumMs / verifyWithUploadsMs,
      },
      { name: 'upload of 4 MiB alone (median)', ms: median(alone), ratio: 1 },
      {
        name: 'upload of 4 MiB during the check (median)',
        ms: median(during),
        ratio: median(alone) / Math.max(1, median(during)),
      },
      { name: 'sha256sum throughput', ms: mibPerSecond(sumMs), ratio: 1, unit: 'MiB/s' },
      {
        name: 'verify-storage throughput',
        ms: mibPerSecond(verifyMs),
        ratio: mibPerSecond(verifyMs) / mibPerSecond(sumMs),
        unit: 'MiB/s',
      },
    ];
  } finally {
    await server.close();
    await ctx.db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
