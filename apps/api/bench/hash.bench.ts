// The SHA-256 a browser computes before an upload (the duplicate check): a 1 GiB file chosen in
// an <input type=file> of a page in Chromium, hashed by the web app's own hashing worker as built
// (apps/web/dist/assets/sha256.worker-*.js: hash-wasm, the File read in 8 MiB slices), against
// `sha256sum` of the same file, in alternate rounds after one warm-up of each (both then read
// from the page cache): throughput. Goal: at least 0.5x.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '../../..');
const assets = path.join(root, 'apps/web/dist/assets');
const BYTES = Number(process.env.BENCH_HASH_BYTES ?? 1024 ** 3);
const ROUNDS = 3;

interface Row {
  name: string;
  ms: number;
  ratio: number;
  unit?: string;
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>hash</title>
<input type="file" id="file">
<script type="module">
  window.hashChosen = (workerUrl) => new Promise((resolve, reject) => {
    const file = document.getElementById('file').files[0];
    const worker = new Worker(workerUrl, { type: 'module' });
    const started = performance.now();
    worker.onmessage = (event) => {
      if (event.data.kind === 'progress') return;
      worker.terminate();
      if (event.data.kind === 'done') resolve({ sha256: event.data.sha256, ms: performance.now() - started });
      else reject(new Error(event.data.message));
    };
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage({ id: 1, blob: file });
  });
</script>`;

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function benchHash(): Promise<Row[]> {
  const workerName = readdirSync(assets).find((name) => /^sha256\.worker-.*\.js$/.test(name));
  if (workerName === undefined) throw new Error('Build the web app first: npm run build');
  const workerSource = readFileSync(path.join(assets, workerName));
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-hash-'));
  const file = path.join(dir, 'one-gib.bin');
  const fd = openSync(file, 'w');
  for (let written = 0; written < BYTES; written += 16 * 1024 * 1024)
    writeSync(fd, randomBytes(Math.min(16 * 1024 * 1024, BYTES - written)));
  closeSync(fd);

  // The page and the worker from one origin, as the app serves them (with the worker's policy).
  const server: Server = createServer((req, res) => {
    if (req.url === `/assets/${workerName}`) {
      res.writeHead(200, {
        'content-type': 'text/javascript',
        'content-security-policy': "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'",
      });
      res.end(workerSource);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(origin);
    await page.locator('#file').setInputFiles(file);
    const sha256sum = () => {
      const started = performance.now();
      const out = spawnSync('sha256sum', [file], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`sha256sum failed: ${out.stderr}`);
      return { ms: performance.now() - started, sha256: out.stdout.split(' ')[0] ?? '' };
    };
    const inBrowser = () =>
      page.evaluate(
        (url) =>
          (
            globalThis as unknown as {
              hashChosen: (url: string) => Promise<{ sha256: string; ms: number }>;
            }
          ).hashChosen(url),
        `/assets/${workerName}`,
      );
    const expected = sha256sum().sha256;
    const warm = await inBrowser();
    if (warm.sha256 !== expected)
      throw new Error(`the worker answered ${warm.sha256}, sha256sum ${expected}`);
    const sums: number[] = [];
    const browserRuns: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      sums.push(sha256sum().ms);
      browserRuns.push((await inBrowser()).ms);
    }
    const mib = BYTES / 1024 ** 2;
    const sumMs = median(sums);
    const browserMs = median(browserRuns);
    return [
      { name: 'sha256sum', ms: mib / (sumMs / 1000), ratio: 1, unit: 'MiB/s' },
      {
        name: 'hashing worker in Chromium (goal x0.50)',
        ms: mib / (browserMs / 1000),
        ratio: sumMs / browserMs,
        unit: 'MiB/s',
      },
    ];
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
