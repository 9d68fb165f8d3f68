// Uploads through the whole stack (authentication, tus, SHA-256, commit) against a bare Node
// server that streams the request body to a file, both in their own process, same client.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSession } from '../src/auth/sessions.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/runtime.js';
import { createCollection } from '../test/files/files-world.js';
import { cpuMs, freePort, startApiProcess, type ApiProcess } from '../test/helpers/api-process.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import type { BenchRow } from './file-list.bench.js';

const GIB = 1024 ** 3;
const BLOCK = randomBytes(64 * 1024 * 1024);
const SMALL_FILES = Number(process.env.BENCH_SMALL_FILES ?? 500);
const SMALL_SIZE = 2 * 1024 * 1024;
const PARALLEL = 4;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * The baseline: a Node server that writes each request body to a new file and answers 204 once
 * the file is closed — synced first (flush), as the API syncs an upload before it commits it,
 * so the ratio measures the stack and not the durability both pay for.
 */
const BARE_SERVER = `
const http = require('node:http'); const fs = require('node:fs'); const path = require('node:path');
let n = 0;
http.createServer((req, res) => {
  const out = fs.createWriteStream(path.join(process.env.DIR, String(n++)), { flush: true });
  req.pipe(out).on('close', () => { res.statusCode = 204; res.end(); });
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
`;

/**
 * Not a target but a floor: the baseline plus only what no stored upload may skip — its SHA-256
 * computed as the bytes stream in (recorded on every file), and the bytes published under their
 * own folder durably (a hard link into a new folder, the folder and its parent synced), as the
 * local driver does before a file's row may point at them; the incoming name is removed after the
 * answer. It writes with the same 1 MiB of room as the API's store (upload-backends.ts), so the
 * next chunks are read and hashed while the disk writes. No HTTP framework, authentication, tus or
 * database: what this server reaches bounds what any implementation of the API can on the same
 * machine.
 */
const FLOOR_SERVER = `
const http = require('node:http'); const fs = require('node:fs'); const fsp = require('node:fs/promises');
const path = require('node:path'); const crypto = require('node:crypto');
const syncDir = async (dir) => { const h = await fsp.open(dir, 'r'); try { await h.sync(); } finally { await h.close(); } };
let n = 0;
http.createServer((req, res) => {
  const id = String(n++);
  const temp = path.join(process.env.DIR, 'incoming-' + id);
  const hash = crypto.createHash('sha256');
  req.on('data', (chunk) => hash.update(chunk));
  const out = fs.createWriteStream(temp, { flush: true, highWaterMark: 1024 * 1024 });
  req.pipe(out).on('close', async () => {
    hash.digest('hex');
    const dir = path.join(process.env.DIR, 'files', id);
    await fsp.mkdir(dir, { recursive: true });
    await fsp.link(temp, path.join(dir, 'original'));
    await Promise.all([syncDir(dir), syncDir(path.dirname(dir))]);
    res.statusCode = 204; res.end();
    await fsp.rm(temp);
  });
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
`;

async function startBareServer(
  dir: string,
  source = BARE_SERVER,
): Promise<{ origin: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', source], {
    env: { PORT: String(port), DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

/** Sends `size` bytes (repeating BLOCK) as the body; resolves with the response status. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  size: number,
): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method,
      headers: { ...headers, 'content-length': String(size) },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? undefined }),
      );
    });
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(BLOCK.length, size - sent);
        sent += n;
        if (!req.write(BLOCK.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

interface Target {
  /** Uploads one file of `size` bytes. */
  upload(size: number): Promise<void>;
}

function bareTarget(origin: string): Target {
  return {
    async upload(size) {
      const { status } = await send(`${origin}/upload`, 'POST', {}, size);
      if (status !== 204) throw new Error(`bare server answered ${status}`);
    },
  };
}

/**
 * As the upload app sends: a file up to one chunk in the creation request itself (tus
 * creation-with-upload), a larger one created first and then sent in a PATCH.
 */
function apiTarget(api: ApiProcess, token: string, teamId: string, collectionId: string): Target {
  const tus = { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' };
  const endpoint = `${api.origin}/api/teams/${teamId}/collections/${collectionId}/uploads`;
  const metadata = `filename ${Buffer.from('bench.bin').toString('base64')}`;
  return {
    async upload(size) {
      if (size <= SMALL_SIZE) {
        const { status } = await send(
          endpoint,
          'POST',
          {
            ...tus,
            'upload-length': String(size),
            'upload-metadata': metadata,
            'content-type': 'application/offset+octet-stream',
          },
          size,
        );
        if (status !== 201) throw new Error(`create with upload: ${status}`);
        return;
      }
      const created = await fetch(endpoint, {
        method: 'POST',
        headers: { ...tus, 'upload-length': String(size), 'upload-metadata': metadata },
      });
      const location = created.headers.get('location');
      if (created.status !== 201 || !location) throw new Error(`create: ${created.status}`);
      const { status } = await send(
        `${api.origin}${location}`,
        'PATCH',
        { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        size,
      );
      if (status !== 204) throw new Error(`patch: ${status}`);
    },
  };
}

async function timeOne(target: Target, size: number): Promise<number> {
  const started = performance.now();
  await target.upload(size);
  return performance.now() - started;
}

async function timeMany(target: Target, count: number, size: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < count) {
        next++;
        await target.upload(size);
      }
    }),
  );
  return performance.now() - started;
}

export async function benchUploads(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-upload-'));
  const bareDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-bare-'));
  const floorDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-floor-'));
  const env = {
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    PUBLIC_URL: 'http://raccolta.bench',
    WORKER: 'off',
    UPLOAD_MAX_FILE_BYTES: String(2 * GIB),
  };
  const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent', SERVE_WEB: 'false' }));
  const owner = await createUser(ctx, { email: 'bench@example.com', nickname: 'Bench' });
  const team = await createTeam(ctx, { owner });
  const collectionId = (
    await createCollection(ctx, { teamId: team.id, createdBy: owner.id, mode: 'owned' })
  ).id;
  // A premium team's files are stored encrypted (storage/encryption.ts): a copy through AES.
  const premium = await createTeam(ctx, { owner });
  await ctx.db.updateTable('teams').set({ plan: 'premium' }).where('id', '=', premium.id).execute();
  const premiumCollectionId = (
    await createCollection(ctx, { teamId: premium.id, createdBy: owner.id, mode: 'owned' })
  ).id;
  const accessToken = (await startSession(ctx, owner, { identityProvider: false })).AccessToken;
  await ctx.db.destroy();

  const bare = await startBareServer(bareDir);
  const floorServer = await startBareServer(floorDir, FLOOR_SERVER);
  let api: ApiProcess | null = null;
  try {
    api = await startApiProcess(env);
    const running = api;
    const baseline = bareTarget(bare.origin);
    const floor = bareTarget(floorServer.origin);
    const stack = apiTarget(running, accessToken, team.id, collectionId);
    const encrypted = apiTarget(running, accessToken, premium.id, premiumCollectionId);
    await baseline.upload(BLOCK.length);
    await floor.upload(SMALL_SIZE);
    await stack.upload(BLOCK.length);
    await stack.upload(SMALL_SIZE);
    await encrypted.upload(BLOCK.length);

    const rssBefore = await running.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      void running.rss().then((rss) => (rssPeak = Math.max(rssPeak, rss)));
    }, 50);
    const bigBare: number[] = [];
    const bigFloor: number[] = [];
    const bigApi: number[] = [];
    const bigEncrypted: number[] = [];
    const manyBare: number[] = [];
    const manyFloor: number[] = [];
    const manyApi: number[] = [];
    let apiCpuMs = 0;
    try {
      for (let round = 0; round < ROUNDS; round++) {
        bigBare.push(await timeOne(baseline, GIB));
        bigFloor.push(await timeOne(floor, GIB));
        bigApi.push(await timeOne(stack, GIB));
        bigEncrypted.push(await timeOne(encrypted, GIB));
        manyBare.push(await timeMany(baseline, SMALL_FILES, SMALL_SIZE));
        manyFloor.push(await timeMany(floor, SMALL_FILES, SMALL_SIZE));
        const cpuBefore = await cpuMs(running.pid);
        manyApi.push(await timeMany(stack, SMALL_FILES, SMALL_SIZE));
        apiCpuMs += (await cpuMs(running.pid)) - cpuBefore;
      }
    } finally {
      clearInterval(sampler);
    }
    const best = (values: number[]) => Math.min(...values);
    const mbps = (ms: number) => GIB / 1024 ** 2 / (ms / 1000);
    const fps = (ms: number) => SMALL_FILES / (ms / 1000);
    const growthMb = (rssPeak - rssBefore) / 1024 ** 2;
    console.log(
      `  1 GiB: bare ${mbps(best(bigBare)).toFixed(0)} MiB/s, floor ${mbps(best(bigFloor)).toFixed(0)} MiB/s, API ${mbps(best(bigApi)).toFixed(0)} MiB/s, ` +
        `API premium (encrypted) ${mbps(best(bigEncrypted)).toFixed(0)} MiB/s; ` +
        `${SMALL_FILES} × 2 MB: bare ${fps(best(manyBare)).toFixed(0)} files/s, floor ${fps(best(manyFloor)).toFixed(0)} files/s, API ${fps(best(manyApi)).toFixed(0)} files/s; ` +
        `API CPU ${(apiCpuMs / (ROUNDS * SMALL_FILES)).toFixed(1)} ms per small file; ` +
        `API RSS ${(rssBefore / 1024 ** 2).toFixed(0)} MB → peak ${(rssPeak / 1024 ** 2).toFixed(0)} MB (+${growthMb.toFixed(0)} MB)`,
    );
    return [
      { name: '1 GiB, bare Node server (baseline)', ms: best(bigBare), ratio: 1 },
      {
        name: '1 GiB, floor: bare + SHA-256 + durable publish (no API)',
        ms: best(bigFloor),
        ratio: best(bigBare) / best(bigFloor),
      },
      {
        name: '1 GiB through the API (throughput ratio)',
        ms: best(bigApi),
        ratio: best(bigBare) / best(bigApi),
      },
      {
        name: '1 GiB through the API, premium team (encrypted copy)',
        ms: best(bigEncrypted),
        ratio: best(bigBare) / best(bigEncrypted),
      },
      { name: `${SMALL_FILES} × 2 MB, bare (baseline)`, ms: best(manyBare), ratio: 1 },
      {
        name: `${SMALL_FILES} × 2 MB, floor: bare + SHA-256 + durable publish (no API)`,
        ms: best(manyFloor),
        ratio: best(manyBare) / best(manyFloor),
      },
      {
        name: `${SMALL_FILES} × 2 MB via the API (files/s ratio)`,
        ms: best(manyApi),
        ratio: best(manyBare) / best(manyApi),
      },
    ];
  } finally {
    await api?.stop();
    bare.stop();
    floorServer.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(bareDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
}
