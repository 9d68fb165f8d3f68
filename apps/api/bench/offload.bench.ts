// DOWNLOAD_OFFLOAD=nginx: a 1 GiB file by signed link through nginx, which the API hands over with
// X-Accel-Redirect, against nginx serving the same file as a static file, in alternate rounds;
// and the API's CPU time per GiB (it only checks the link).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { NodeProcess, repoRoot, startNginx } from '../cluster/harness.js';
import { loadConfig } from '../src/config/config.js';
import { createContext } from '../src/runtime.js';
import { cpuMs, freePort } from '../test/helpers/api-process.js';
import type { BenchRow } from './file-list.bench.js';

const GIB = 1024 ** 3;
const ROUNDS = Number(process.env.BENCH_OFFLOAD_ROUNDS ?? 5);
const KEY = 'teams/bench/files/big/original';

function drain(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const bytes = await drain(url);
  if (bytes !== GIB) throw new Error(`received ${bytes} bytes from ${url}, not 1 GiB`);
  return performance.now() - started;
}

export async function benchOffload(): Promise<BenchRow[]> {
  const nginxFound = ['/usr/sbin/nginx', '/usr/bin/nginx'].some(
    (p) => spawnSync('test', ['-x', p]).status === 0,
  );
  if (!nginxFound) {
    console.log('  skipped: nginx is not installed (apt-get install -y nginx)');
    return [];
  }
  spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-offload-'));
  const dataDir = path.join(dir, 'data');
  const listen = await freePort();
  const staticPort = await freePort();
  const origin = `http://127.0.0.1:${listen}`;
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    APP_SECRET: randomBytes(32).toString('hex'),
    TRUST_PROXY: 'true',
    DOWNLOAD_OFFLOAD: 'nginx',
    WORKER: 'off',
    LOG_LEVEL: 'warn',
  };
  const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
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

  const api = new NodeProcess('api', path.join(repoRoot, 'apps/api/dist/main.js'), env, port, 0);
  api.start();
  const filesRoot = path.join(dataDir, 'files');
  const proxy = await startNginx(path.join(dir, 'nginx'), listen, [port], filesRoot, [
    // The baseline: the same file as a static file, with the same sendfile settings.
    `server { listen 127.0.0.1:${staticPort}; root ${filesRoot}; sendfile on; tcp_nopush on; }`,
  ]);
  try {
    await api.ready();
    const staticUrl = `http://127.0.0.1:${staticPort}/${KEY}`;
    await timed(link);
    await timed(staticUrl);
    const offloaded: number[] = [];
    const baseline: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      baseline.push(await timed(staticUrl));
      const before = await cpuMs(api.pid ?? 0);
      offloaded.push(await timed(link));
      cpu.push((await cpuMs(api.pid ?? 0)) - before);
    }
    console.log(
      offloaded
        .map(
          (ms, i) =>
            `  round ${i + 1}: offload ${(1024 / (ms / 1000)).toFixed(0)} MiB/s, static ${(1024 / ((baseline[i] ?? 1) / 1000)).toFixed(0)} MiB/s, API ${((cpu[i] ?? 0) / 1000).toFixed(3)} CPU-s`,
        )
        .join('\n'),
    );
    const median = (values: number[]) =>
      [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;
    const staticMs = median(baseline);
    const offloadMs = median(offloaded);
    return [
      { name: '1 GiB, nginx static file (baseline)', ms: staticMs, ratio: 1 },
      { name: '1 GiB by signed link, offloaded', ms: offloadMs, ratio: staticMs / offloadMs },
      { name: 'API CPU per GiB, offloaded (max)', ms: Math.max(...cpu), ratio: 1 },
    ];
  } finally {
    await proxy.stop();
    await api.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
