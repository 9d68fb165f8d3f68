import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ERROR_STATUS } from '@raccolta/contracts';
import fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../http/error-handler.js';
import { createLocalStorage, type LocalStorage } from './local-storage.js';
import type { SignedUrlOptions } from './storage.js';
import { storageRoutes } from './storage.routes.js';
import { makeTempDir } from './testing/helpers.js';

const SECRET = 'route-test-secret-route-test-secret';
const BASE = 'http://localhost/api';
const KEY = 'teams/t1/files/f1';
const DATA = randomBytes(1000);

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let storage: LocalStorage;
let app: FastifyInstance;
let now: Date;

beforeEach(async () => {
  temp = await makeTempDir();
  now = new Date('2030-06-01T12:00:00Z');
  const clock = (): Date => now;
  storage = createLocalStorage({
    root: path.join(temp.dir, 'files'),
    signingSecret: SECRET,
    publicBaseUrl: BASE,
    clock,
  });
  await storage.put(KEY, Readable.from([DATA]));
  app = fastify();
  registerErrorHandler(app);
  await app.register(storageRoutes({ storage, signingSecret: SECRET, clock }), { prefix: '/api' });
  await app.ready();
});

afterEach(async () => {
  await app.close();
  await temp.cleanup();
});

async function linkPath(opts: Partial<SignedUrlOptions> = {}, key = KEY): Promise<string> {
  const url = await storage.signedUrl(key, { expiresInSeconds: 600, ...opts });
  expect(url.startsWith(`${BASE}/storage/`)).toBe(true);
  return url.slice('http://localhost'.length);
}

describe('GET /api/storage/:token', () => {
  it('serves the whole file with download headers', async () => {
    const url = await linkPath({ fileName: 'data.bin', contentType: 'application/zip' });
    const res = await app.inject({ method: 'GET', url });

    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(DATA);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-length']).toBe('1000');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-disposition']).toBe('attachment; filename="data.bin"');
    expect(res.headers['cache-control']).toBe('private, max-age=600');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
  });

  it('sends a file of several read chunks over a real connection, whole and in part', async () => {
    // Larger than the three buffers the body is sent through, so buffers are reused.
    const big = randomBytes(5 * 1024 * 1024 + 321);
    await storage.put('teams/t1/files/big', Readable.from([big]));
    const url = await linkPath({ fileName: 'big.bin' }, 'teams/t1/files/big');
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const whole = await fetch(`${origin}${url}`);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(big)).toBe(true);
    const part = await fetch(`${origin}${url}`, { headers: { range: 'bytes=1048570-4194310' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(big.subarray(1048570, 4194311))).toBe(true);
  });

  it('counts max-age down with the remaining lifetime', async () => {
    const url = await linkPath();
    now = new Date(now.getTime() + 450_000);
    const res = await app.inject({ method: 'GET', url });
    expect(res.headers['cache-control']).toBe('private, max-age=150');
    expect(res.headers['content-type']).toBe('application/octet-stream');
  });

  it.each([
    ['bytes=10-19', 10, 19],
    ['bytes=990-', 990, 999],
    ['bytes=-25', 975, 999],
    ['bytes=0-', 0, 999],
    ['bytes=995-5000', 995, 999],
  ])('answers %s with 206', async (range, start, end) => {
    const res = await app.inject({ method: 'GET', url: await linkPath(), headers: { range } });

    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/1000`);
    expect(res.headers['content-length']).toBe(String(end - start + 1));
    expect(res.rawPayload).toEqual(DATA.subarray(start, end + 1));
  });

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('answers %s with 416', async (range) => {
    const res = await app.inject({ method: 'GET', url: await linkPath(), headers: { range } });

    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */1000');
    expect(res.rawPayload.length).toBe(0);
  });

  it.each(['bytes=0-1,5-9', 'bytes=9-1', 'lines=1-2'])(
    'answers %s with the whole body',
    async (range) => {
      const res = await app.inject({ method: 'GET', url: await linkPath(), headers: { range } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload).toEqual(DATA);
    },
  );

  it('ignores Range under If-Range, having no validator that could match', async () => {
    const res = await app.inject({
      method: 'GET',
      url: await linkPath(),
      headers: { range: 'bytes=0-9', 'if-range': '"abc"' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(DATA);
  });

  it('answers HEAD with the headers and no body', async () => {
    const url = await linkPath({ fileName: 'data.bin' });
    const full = await app.inject({ method: 'HEAD', url });
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-length']).toBe('1000');
    expect(full.headers['content-disposition']).toBe('attachment; filename="data.bin"');
    expect(full.rawPayload.length).toBe(0);

    const part = await app.inject({ method: 'HEAD', url, headers: { range: 'bytes=-100' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 900-999/1000');
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload.length).toBe(0);
  });

  it('encodes a non-ASCII file name per RFC 6266', async () => {
    const url = await linkPath({ fileName: 'Foto è già 📷.jpg', contentType: 'image/jpeg' });
    const res = await app.inject({ method: 'GET', url });
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Foto e gia _.jpg"; filename*=UTF-8''Foto%20%C3%A8%20gi%C3%A0%20%F0%9F%93%B7.jpg`,
    );
  });

  it('shows passive media inline when asked, without a sandbox for PDF', async () => {
    const image = await app.inject({
      method: 'GET',
      url: await linkPath({ contentType: 'image/png', disposition: 'inline', fileName: 'a.png' }),
    });
    expect(image.headers['content-disposition']).toBe('inline; filename="a.png"');
    expect(image.headers['content-security-policy']).toBe('sandbox');

    const pdf = await app.inject({
      method: 'GET',
      url: await linkPath({ contentType: 'application/pdf', disposition: 'inline' }),
    });
    expect(pdf.headers['content-disposition']).toBe('inline');
    expect(pdf.headers['content-security-policy']).toBeUndefined();
  });

  it('downloads active content even when inline was asked for', async () => {
    const res = await app.inject({
      method: 'GET',
      url: await linkPath({ contentType: 'text/html', disposition: 'inline' }),
    });
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.headers['content-disposition']).toBe('attachment');
    expect(res.headers['content-security-policy']).toBe('sandbox');
  });

  it('refuses a tampered token', async () => {
    const url = await linkPath();
    const tampered = url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const bad of [tampered, '/api/storage/garbage', '/api/storage/', `${url}/extra`]) {
      const res = await app.inject({ method: 'GET', url: bad });
      expect(res.statusCode).toBe(ERROR_STATUS.invalidDownload);
      expect(res.json()).toMatchObject({ errorCode: 'invalidDownload' });
    }
  });

  it('answers 410 for an expired link', async () => {
    const url = await linkPath({ expiresInSeconds: 60 });
    now = new Date(now.getTime() + 60_000);
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ statusCode: 410, errorCode: 'expiredToken' });
  });

  it('answers 404 when the object is gone', async () => {
    const url = await linkPath();
    await storage.delete(KEY);
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, errorCode: 'notFound' });
  });
});

describe('DOWNLOAD_OFFLOAD=nginx', () => {
  async function offloaded(): Promise<FastifyInstance> {
    const offloading = fastify();
    registerErrorHandler(offloading);
    await offloading.register(
      storageRoutes({
        storage,
        signingSecret: SECRET,
        clock: () => now,
        offload: { prefix: '/_raccolta_files/' },
      }),
      { prefix: '/api' },
    );
    await offloading.ready();
    return offloading;
  }

  it('hands a checked link of a plain object to nginx, with the headers and no bytes', async () => {
    const offloading = await offloaded();
    try {
      const url = await linkPath({ fileName: 'data.bin' });
      const res = await offloading.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-accel-redirect']).toBe(`/_raccolta_files/${KEY}`);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="data\.bin"/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe('sandbox');
      // A link that does not check out is refused by the node: nginx never sees the file.
      const expired = await linkPath({ expiresInSeconds: 1 });
      now = new Date(now.getTime() + 5_000);
      const late = await offloading.inject({ method: 'GET', url: expired });
      expect(late.statusCode).toBe(410);
      expect(late.headers['x-accel-redirect']).toBeUndefined();
    } finally {
      await offloading.close();
    }
  });

  it('still sends an encrypted object itself: nginx would send the ciphertext', async () => {
    const offloading = await offloaded();
    try {
      const encrypted = `${KEY}.enc`;
      await storage.put(encrypted, Readable.from([DATA]));
      const res = await offloading.inject({ method: 'GET', url: await linkPath({}, encrypted) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-accel-redirect']).toBeUndefined();
      expect(res.rawPayload).toEqual(DATA);
    } finally {
      await offloading.close();
    }
  });
});
