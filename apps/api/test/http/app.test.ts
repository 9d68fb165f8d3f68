import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { errorBodySchema, statusResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { docsCsp } from '../../src/http/openapi.js';
import { WORKER_CSP } from '../../src/http/web-app.js';

describe('HTTP foundation', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '1000' });
    // Routes that exist only in this test, to drive the error handler.
    server.app.post(
      '/api/test/echo',
      { schema: { body: z.object({ name: z.string().min(2) }) } },
      (request) => request.body,
    );
    server.app.get('/api/test/boom', () => {
      throw new Error('secret internal detail');
    });
    await server.app.ready();
  });
  afterAll(() => server.close());

  it('GET /api/status reports database and storage health', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(200);
    const body = statusResponseSchema.parse(res.json());
    expect(body.status).toBe('ok');
    expect(Date.parse(body.timestamp)).not.toBeNaN();
  });

  it('reports degraded when the storage is unusable', async () => {
    const original = server.ctx.storage.health.bind(server.ctx.storage);
    server.ctx.storage.health = () => Promise.reject(new Error('disk gone'));
    try {
      const body = statusResponseSchema.parse((await server.app.inject('/api/status')).json());
      expect(body.status).toBe('degraded');
      expect(body.message).toMatch(/storage/);
    } finally {
      server.ctx.storage.health = original;
    }
  });

  it('answers an unknown API path with 404 notFound', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(errorBodySchema.parse(res.json())).toMatchObject({
      statusCode: 404,
      errorCode: 'notFound',
    });
  });

  it('answers a schema failure with 400 invalidInput', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(errorBodySchema.parse(res.json())).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidInput',
    });
  });

  it('answers malformed JSON with 400 invalidRequest', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorCode: 'invalidRequest' });
  });

  it('answers an unexpected failure with 500 generic and a request id, never the details', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    const body = errorBodySchema.parse(res.json());
    expect(body.errorCode).toBe('generic');
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toContain('secret internal detail');
  });

  it('sets security headers', async () => {
    const res = await server.app.inject('/api/status');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none';base-uri 'none'",
    );
    expect(res.headers['cross-origin-resource-policy']).toBe('same-site');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-dns-prefetch-control']).toBe('off');
    expect(res.headers['origin-agent-cluster']).toBe('?1');
    expect(res.headers['permissions-policy']).toContain('camera=()');
    expect(res.headers['cache-control']).toBe('no-store');
    // Plain HTTP here: no HSTS, which only an https public URL turns on.
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('allows CORS only for the configured web origin', async () => {
    const allowed = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/status',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const refused = await server.app.inject({
      method: 'OPTIONS',
      url: '/api/status',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the OpenAPI document generated from the route schemas, and its UI', async () => {
    const doc = (await server.app.inject('/api/openapi.json')).json<{
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    }>();
    expect(doc.openapi).toMatch(/^3\./);
    // Paths are relative to the server URL, which ends in /api.
    expect(doc.paths).toHaveProperty('/status');
    for (const path of [
      '/auth/signup',
      '/auth/signin',
      '/auth/refresh',
      '/oauth2/authorize',
      '/oauth2/token',
      '/users/@me',
      '/teams',
      '/teams/{teamId}',
      '/teams/{teamId}/aliases',
      '/teams/{teamId}/members',
      '/teams/{teamId}/members/{memberId}',
      '/teams/{teamId}/invitations/accept',
      '/collections',
      '/teams/{teamId}/collections',
      '/teams/{teamId}/collections/{collectionId}',
      '/teams/{teamId}/shared-collections',
      '/teams/{teamId}/members/{memberId}/collections',
      '/files',
      '/teams/{teamId}/files',
      '/teams/{teamId}/collections/{collectionId}/files',
      '/teams/{teamId}/collections/{collectionId}/files/{fileId}',
      '/teams/{teamId}/collections/{collectionId}/files/{fileId}/download',
      '/teams/{teamId}/members/{memberId}/collections/{collectionId}/files',
      '/teams/{teamId}/collections/{collectionId}/uploads',
      '/teams/{teamId}/collections/{collectionId}/uploads/{uploadId}',
      '/teams/{teamId}/downloads',
      '/teams/{teamId}/downloads/{downloadId}',
      '/teams/{teamId}/downloads/{downloadId}/parts/{partId}',
      '/teams/{teamId}/downloads/{downloadId}/download',
      '/teams/{teamId}/downloads/{downloadId}/parts/{partId}/download',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    // Every tus method of an upload is documented.
    expect(
      Object.keys(doc.paths['/teams/{teamId}/collections/{collectionId}/uploads/{uploadId}'] ?? {}),
    ).toEqual(expect.arrayContaining(['head', 'patch', 'delete']));
    // The upload's multipart body is described although the route reads it as a stream.
    expect(
      doc.paths['/teams/{teamId}/collections/{collectionId}/files']?.post?.requestBody?.content,
    ).toHaveProperty(['multipart/form-data']);
    const ui = await server.app.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
    // Served over plain HTTP here: the page must not send its own scripts to https://.
    const csp = String(ui.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('keeps upgrade-insecure-requests in the docs CSP behind HTTPS only', () => {
    const header = "default-src 'self'; style-src 'self' https: 'x'; upgrade-insecure-requests;";
    expect(docsCsp(header, 'https://raccolta.example')).toBe(
      "default-src 'self'; style-src 'self' 'unsafe-inline' 'x'; upgrade-insecure-requests;",
    );
    expect(docsCsp(header, 'http://192.168.1.20:3000')).toBe(
      "default-src 'self'; style-src 'self' 'unsafe-inline' 'x';",
    );
  });
});

describe('rate limiting', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '3' });
  });
  afterAll(() => server.close());

  it('lets thumbnail links through at ten times the limit', async () => {
    const codes = new Set<number>();
    for (let i = 0; i < 12; i++) {
      codes.add((await server.app.inject(`/api/renditions/not-a-link-${i}`)).statusCode);
    }
    expect([...codes]).toEqual([400]);
  });

  it('answers 429 tooManyRequests past the limit', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await server.app.inject('/api/nope')).statusCode);
    expect(codes).toEqual([404, 404, 404, 429, 429]);
    const res = await server.app.inject('/api/nope');
    expect(res.json()).toMatchObject({ statusCode: 429, errorCode: 'tooManyRequests' });
  });
});

describe('serving the web app', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'raccolta-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><meta property="csp-nonce" nonce="__CSP_NONCE__"><script type="module" nonce="__CSP_NONCE__" src="/assets/app.js"></script></head><body></body></html>',
    );
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(dist, 'assets', 'app.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(dist, 'assets', 'app.js.gz'), gzipSync('console.log(1)'));
    writeFileSync(path.join(dist, 'assets', 'sha256.worker-Ab1_x.js'), 'onmessage = null');
    writeFileSync(
      path.join(dist, 'assets', 'sha256.worker-Ab1_x.js.br'),
      brotliCompressSync('onmessage = null'),
    );
    server = await startTestServer({ SERVE_WEB: 'true', WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for client routes with a fresh nonce in a strict CSP', async () => {
    const a = await server.app.inject('/teams/some-team');
    const b = await server.app.inject('/status');
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toContain('text/html');
    const nonceA = /nonce="([^"]+)"/.exec(a.body)?.[1];
    const nonceB = /nonce="([^"]+)"/.exec(b.body)?.[1];
    expect(nonceA).toBeTruthy();
    expect(nonceA).not.toBe(nonceB);
    expect(a.body).not.toContain('__CSP_NONCE__');
    const csp = String(a.headers['content-security-policy']);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonceA ?? ''}'`);
    expect(csp).not.toContain('unsafe-inline');
    // The file preview frames a PDF over a signed link of the API (local storage).
    const apiOrigin = new URL(server.config.apiPublicUrl).origin;
    expect(csp).toContain(`frame-src 'self' ${apiOrigin};`);
  });

  it('serves hashed assets with a long cache', async () => {
    const res = await server.app.inject('/assets/app.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('lets worker scripts compile WebAssembly, and nothing else more than the API allows', async () => {
    for (const encoding of ['br', 'identity']) {
      const worker = await server.app.inject({
        url: '/assets/sha256.worker-Ab1_x.js',
        headers: { 'accept-encoding': encoding },
      });
      expect(worker.statusCode).toBe(200);
      expect(worker.headers['content-security-policy']).toBe(WORKER_CSP);
    }
    expect(WORKER_CSP).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(WORKER_CSP).not.toMatch(/'unsafe-eval'|unsafe-inline/);
    const script = await server.app.inject('/assets/app.js');
    expect(script.headers['content-security-policy']).not.toContain('wasm-unsafe-eval');
  });

  it('answers a file the same whatever its Origin: no Vary on Origin, no CORS headers', async () => {
    // A module script is fetched with an Origin header and fetch() of the same file without: a
    // Vary on Origin keeps them apart in the browser's cache, and the upload app's offline copy
    // downloaded every script a second time.
    const webOrigin = server.config.webOrigins[0] ?? '';
    for (const origin of [undefined, webOrigin]) {
      const res = await server.app.inject({
        url: '/assets/app.js',
        headers: { 'accept-encoding': 'br', ...(origin ? { origin } : {}) },
      });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers.vary).toLowerCase()).toBe('accept-encoding');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
    // The API keeps its CORS.
    const api = await server.app.inject({ url: '/api/status', headers: { origin: webOrigin } });
    expect(String(api.headers.vary).toLowerCase()).toContain('origin');
    expect(api.headers['access-control-allow-origin']).toBe(webOrigin);
  });

  it('sends the security headers with the page and its files too', async () => {
    for (const url of ['/teams/some-team', '/assets/app.js']) {
      const res = await server.app.inject(url);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(res.headers['permissions-policy'], url).toContain('camera=()');
    }
    // The page's own policy replaces the API's, which allows nothing.
    const page = await server.app.inject('/teams/some-team');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('serves the precompressed copy a browser accepts, and plain bytes to others', async () => {
    const br = await server.app.inject({
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const gz = await server.app.inject({
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');
    const plain = await server.app.inject({
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it("does not count the built files against the address's request limit", async () => {
    const limited = await startTestServer({
      SERVE_WEB: 'true',
      WEB_DIST_DIR: dist,
      RATE_LIMIT_MAX: '3',
    });
    try {
      for (let i = 0; i < 10; i++) {
        expect((await limited.app.inject('/assets/app.js')).statusCode).toBe(200);
      }
      // Pages and API calls still count.
      const pages: number[] = [];
      for (let i = 0; i < 4; i++) pages.push((await limited.app.inject('/teams')).statusCode);
      expect(pages).toEqual([200, 200, 200, 429]);
      expect((await limited.app.inject('/api/nope')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const res = await server.app.inject('/api/teams-that-do-not-exist');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ errorCode: 'notFound' });
  });
});
