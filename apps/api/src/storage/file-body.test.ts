import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { FileBody, fileBodyBuffersAllocated, READ_CHUNK_BYTES, RING_SIZE } from './file-body.js';
import { makeTempDir } from './testing/helpers.js';

const MiB = 1024 * 1024;
let temp: Awaited<ReturnType<typeof makeTempDir>>;
let file: string;
let content: Buffer;
let server: http.Server | null = null;

beforeEach(async () => {
  temp = await makeTempDir();
  file = path.join(temp.dir, 'object');
  // Not a multiple of the chunk size, so the last chunk is short.
  content = randomBytes(24 * MiB + 12_345);
  await writeFile(file, content);
});

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
  await temp.cleanup();
});

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** Serves the file's range [start, end] with a FileBody piped into the response. */
async function serve(
  start: number,
  end: number,
  onBody?: (body: FileBody) => void,
): Promise<string> {
  server = http.createServer((_req, res) => {
    void open(file, 'r').then((handle) => {
      const body = new FileBody(handle, start, end);
      onBody?.(body);
      res.writeHead(200, { 'content-length': end - start + 1 });
      body.pipe(res);
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** A reader slower than the disk: it pauses 5 ms every 2 MiB, so the server meets backpressure. */
function slowGet(url: string, abortAfter?: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let total = 0;
      let sincePause = 0;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        total += chunk.length;
        sincePause += chunk.length;
        if (abortAfter !== undefined && total >= abortAfter) {
          req.destroy();
          resolve(Buffer.concat(chunks));
          return;
        }
        if (sincePause >= 2 * MiB) {
          sincePause = 0;
          res.pause();
          setTimeout(() => res.resume(), 5);
        }
      });
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    });
    req.on('error', (error) => (abortAfter === undefined ? reject(error) : undefined));
  });
}

it('sends a whole file to a slow HTTP reader from a ring of reused buffers', async () => {
  const url = await serve(0, content.length - 1);
  const before = fileBodyBuffersAllocated();
  const received = await slowGet(url);
  expect(received.length).toBe(content.length);
  expect(sha(received)).toBe(sha(content));
  // 25 chunks went out through at most three buffers: a reused buffer overwritten before the
  // socket had written it would have changed the hash above.
  const allocated = fileBodyBuffersAllocated() - before;
  expect(allocated).toBeGreaterThan(0);
  expect(allocated).toBeLessThanOrEqual(RING_SIZE);
});

it('sends a byte range that starts and ends inside chunks', async () => {
  const start = 5;
  const end = 3 * READ_CHUNK_BYTES + 7;
  const url = await serve(start, end);
  const received = await slowGet(url);
  expect(received.equals(content.subarray(start, end + 1))).toBe(true);
});

it('closes the file when the reader goes away mid-download', async () => {
  let body: FileBody | undefined;
  const url = await serve(0, content.length - 1, (b) => (body = b));
  const received = await slowGet(url, 4 * MiB);
  expect(received.length).toBeGreaterThanOrEqual(4 * MiB);
  expect(body).toBeDefined();
  const streamed = body as FileBody;
  if (!streamed.closed) await new Promise((resolve) => streamed.once('close', resolve));
  expect(streamed.destroyed).toBe(true);
});

it('gives every reader of the plain stream its own buffers', async () => {
  const handle = await open(file, 'r');
  const body = new FileBody(handle, 0, content.length - 1);
  // Kept until the end: had any buffer been reused, earlier chunks would now hold later bytes.
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  expect(chunks.length).toBe(Math.ceil(content.length / READ_CHUNK_BYTES));
  expect(Buffer.concat(chunks).equals(content)).toBe(true);
  expect(handle.fd).toBe(-1);
});

it('pipes into a stream that is not a response the plain way', async () => {
  const handle = await open(file, 'r');
  const body = new FileBody(handle, 10, 2 * MiB);
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  await pipeline(body, sink);
  expect(Buffer.concat(chunks).equals(content.subarray(10, 2 * MiB + 1))).toBe(true);
});

it('ends at the end of a file shorter than the range it was opened for', async () => {
  const handle = await open(file, 'r');
  const body = new FileBody(handle, content.length - 100, content.length + 1000);
  const chunks: Buffer[] = [];
  body.on('data', (chunk: Buffer) => chunks.push(chunk));
  await finished(body);
  expect(Buffer.concat(chunks).equals(content.subarray(content.length - 100))).toBe(true);
});
