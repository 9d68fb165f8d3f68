// A 1 GiB file sent by a signed link (local disk: the API reads and sends it), against a bare Node
// server sending the same stored file in 1 MiB chunks, in alternate rounds: throughput, the
// server's CPU time per GiB, and its major garbage collections per GiB (--trace-gc).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/runtime.js';
import { cpuMs, freePort, startApiProcess } from '../test/helpers/api-process.js';
import type { BenchRow } from './file-list.bench.js';

const GIB = 1024 ** 3;
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 5);
const KEY = 'teams/bench/files/big/original';
const PAUSE_EVERY = Number(process.env.BENCH_STREAM_PAUSE_EVERY ?? 4 * 1024 * 1024);

const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const file = process.env.FILE;
const size = fs.statSync(file).size;
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
  fs.createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(res);
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
`;

interface GcCounts {
  majors: number;
  /** Collections V8 ran because of memory outside its heap: the read buffers. */
  external: number;
}

/** Counts the collections a process started with --trace-gc reports. */
function gcCounter(child: ChildProcess): () => GcCounts {
  const counts: GcCounts = { majors: 0, external: 0 };
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('Mark-Compact')) counts.majors++;
      if (line.includes('external memory pressure')) counts.external++;
    }
  });
  return () => ({ ...counts });
}

/** Downloads `url` to nowhere (or into `hash`); answers the bytes received. */
function drain(url: string, hash?: Hash): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let bytes = 0;
        let sincePause = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          hash?.update(chunk);
          sincePause += chunk.length;
          // A reader a little slower than the disk, as a browser on a network is: the server's
          // chunks wait in its socket's queue.
          if (sincePause >= PAUSE_EVERY) {
            sincePause = 0;
            res.pause();
            setTimeout(() => res.resume(), 1);
          }
        });
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

interface Round {
  ms: number;
  cpuMs: number;
  majors: number;
  external: number;
}

async function measure(url: string, pid: number, gcs: () => GcCounts): Promise<Round> {
  const cpu = await cpuMs(pid);
  const before = gcs();
  const started = performance.now();
  const bytes = await drain(url);
  const ms = performance.now() - started;
  if (bytes !== GIB) throw new Error(`received ${bytes} bytes, not 1 GiB`);
  // The trace lines of the last collections may still be on their way.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = gcs();
  return {
    ms,
    cpuMs: (await cpuMs(pid)) - cpu,
    majors: after.majors - before.majors,
    external: after.external - before.external,
  };
}

export async function benchStream(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-stream-'));
  const env = {
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    WORKER: 'off',
    RACCOLTA_API_NODE_ARGS: '--trace-gc',
  };
  const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent', SERVE_WEB: 'false' }));
  const block = randomBytes(1024 * 1024);
  await ctx.storage.put(
    KEY,
    Readable.from(
      (function* () {
        for (let i = 0; i < 1024; i++) yield block;
      })(),
    ),
  );
  const link = await ctx.storage.signedUrl(KEY, { expiresInSeconds: 3600, fileName: 'big.bin' });
  await ctx.db.destroy();

  const previousArgs = process.env.RACCOLTA_API_NODE_ARGS;
  process.env.RACCOLTA_API_NODE_ARGS = '--trace-gc';
  const api = await startApiProcess({
    DATA_DIR: dataDir,
    APP_SECRET: env.APP_SECRET,
    WORKER: 'off',
  });
  process.env.RACCOLTA_API_NODE_ARGS = previousArgs ?? '';
  const apiMajors = gcCounter(api.child);
  const port = await freePort();
  const bare = spawn(process.execPath, ['--trace-gc', '-e', BARE_SERVER], {
    env: { PORT: String(port), FILE: path.join(dataDir, 'files', ...KEY.split('/')) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => bare.stdout.once('data', () => resolve()));
  const bareMajors = gcCounter(bare);
  const apiUrl = `${api.origin}${new URL(link).pathname}${new URL(link).search}`;
  // BENCH_STREAM_CONTEND=1: both servers share one core with a busy loop, a starved process.
  let busy: ChildProcess | null = null;
  if (process.env.BENCH_STREAM_CONTEND === '1') {
    for (const pid of [api.pid, bare.pid ?? 0])
      spawnSync('taskset', ['-p', '-c', '0', String(pid)]);
    busy = spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], {
      stdio: 'ignore',
    });
  }
  try {
    // Warm both once, checking that the API sent the right bytes, then alternate.
    const expected = createHash('sha256');
    for (let i = 0; i < 1024; i++) expected.update(block);
    const received = createHash('sha256');
    await drain(apiUrl, received);
    if (received.digest('hex') !== expected.digest('hex'))
      throw new Error('the API sent other bytes');
    await drain(`http://127.0.0.1:${port}/`);
    const apiRounds: Round[] = [];
    const bareRounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareRounds.push(await measure(`http://127.0.0.1:${port}/`, bare.pid ?? 0, bareMajors));
      apiRounds.push(await measure(apiUrl, api.pid, apiMajors));
    }
    const lines = apiRounds.map((a, i) => {
      const b = bareRounds[i] as Round;
      return `  round ${i + 1}: API ${(GIB / 1048576 / (a.ms / 1000)).toFixed(0)} MiB/s, ${(a.cpuMs / 1000).toFixed(2)} CPU-s, ${a.majors} major / ${a.external} external-pressure GCs; bare ${(GIB / 1048576 / (b.ms / 1000)).toFixed(0)} MiB/s, ${(b.cpuMs / 1000).toFixed(2)} CPU-s, ${b.majors} major / ${b.external} external-pressure GCs; ratio x${(b.ms / a.ms).toFixed(2)}`;
    });
    console.log(lines.join('\n'));
    const median = (values: number[]) =>
      [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;
    const apiMs = median(apiRounds.map((r) => r.ms));
    const bareMs = median(bareRounds.map((r) => r.ms));
    return [
      { name: '1 GiB, bare Node server (baseline)', ms: bareMs, ratio: 1 },
      { name: '1 GiB by signed link, API', ms: apiMs, ratio: bareMs / apiMs },
      {
        name: 'API rounds at ≥ 0.9 × bare',
        ms: apiRounds.filter((a, i) => (bareRounds[i] as Round).ms / a.ms >= 0.9).length,
        ratio: 1,
        unit: '#',
      },
      {
        name: 'API CPU per GiB (median)',
        ms: median(apiRounds.map((r) => r.cpuMs)),
        ratio:
          median(apiRounds.map((r) => r.cpuMs)) /
          Math.max(1, median(bareRounds.map((r) => r.cpuMs))),
      },
      {
        name: 'API major GCs per GiB (max)',
        ms: Math.max(...apiRounds.map((r) => r.majors)),
        ratio: 1,
        unit: '#',
      },
      {
        name: 'bare major GCs per GiB (max)',
        ms: Math.max(...bareRounds.map((r) => r.majors)),
        ratio: 1,
        unit: '#',
      },
      {
        name: 'API GCs forced by read buffers per GiB (max)',
        ms: Math.max(...apiRounds.map((r) => r.external)),
        ratio: 1,
        unit: '#',
      },
      {
        name: 'bare GCs forced by read buffers per GiB (max)',
        ms: Math.max(...bareRounds.map((r) => r.external)),
        ratio: 1,
        unit: '#',
      },
    ];
  } finally {
    busy?.kill('SIGKILL');
    bare.kill('SIGKILL');
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
