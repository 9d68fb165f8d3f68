import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config.js';

const NONCE_PLACEHOLDER = /__CSP_NONCE__/g;

/**
 * The analytics origin is allowed only when analytics is configured: its script (script-src), its
 * events (connect-src: fetch and sendBeacon) and, for Matomo, whose tracker falls back to an image
 * request, img-src. Whether the script is loaded at all is the visitor's consent, decided in the
 * browser.
 */
function analyticsSources(config: Config): { script: string[]; connect: string[]; img: string[] } {
  const analytics = config.analytics;
  if (!analytics) return { script: [], connect: [], img: [] };
  const scriptOrigin = new URL(analytics.scriptUrl).origin;
  if (analytics.provider === 'plausible')
    return { script: [scriptOrigin], connect: [scriptOrigin], img: [] };
  const trackerOrigin = new URL(analytics.trackerUrl).origin;
  return { script: [scriptOrigin], connect: [trackerOrigin], img: [trackerOrigin] };
}

/**
 * Where the signed links of S3 storage point (presigned, straight to the bucket): the endpoint
 * itself with path-style addressing, the bucket's own host otherwise. Local storage's links are
 * the API's.
 */
export function storageOrigins(config: Pick<Config, 'storage'>): string[] {
  const { storage } = config;
  if (storage.kind !== 's3') return [];
  const endpoint = new URL(storage.endpoint ?? `https://s3.${storage.region}.amazonaws.com`);
  if (storage.forcePathStyle) return [endpoint.origin];
  return [`${endpoint.protocol}//${storage.bucket}.${endpoint.host}`];
}

export function webAppCsp(nonce: string, config: Config): string {
  const apiOrigin = new URL(config.apiPublicUrl).origin;
  const analytics = analyticsSources(config);
  const connect = [
    "'self'",
    ...(apiOrigin === new URL(config.publicUrl).origin ? [] : [apiOrigin]),
    ...analytics.connect,
  ];
  return [
    "default-src 'self'",
    ["script-src 'self'", `'nonce-${nonce}'`, ...analytics.script].join(' '),
    `style-src 'self' 'nonce-${nonce}'`,
    ["img-src 'self' data: blob:", apiOrigin, ...analytics.img].join(' '),
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    `media-src 'self' blob: ${apiOrigin}`,
    // The file preview shows a PDF in the browser's viewer, over a signed link of the storage.
    ["frame-src 'self'", apiOrigin, ...storageOrigins(config)].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The policy of the app's Web Worker scripts (Vite names them `<name>.worker-<hash>.js`): the
 * hashing worker compiles WebAssembly (hash-wasm), which a worker may only do when its own
 * script's policy says 'wasm-unsafe-eval'; it loads its modules from this origin and nothing else.
 */
export const WORKER_CSP =
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'; base-uri 'none'";
const WORKER_SCRIPT = /\.worker-[\w-]+\.js(?:\.br|\.gz)?$/;

/**
 * Serves the built web app: hashed assets with a long cache, and index.html for every other
 * non-API GET (client-side routes), each time with a fresh CSP nonce. Unknown /api paths stay
 * JSON 404s (the caller's not-found handler).
 */
export async function registerWebApp(
  app: FastifyInstance,
  config: Config,
): Promise<((request: FastifyRequest, reply: FastifyReply) => FastifyReply | null) | null> {
  const indexFile = path.join(config.web.distDir, 'index.html');
  if (!config.web.serve || !existsSync(indexFile)) {
    if (config.web.serve)
      app.log.warn({ distDir: config.web.distDir }, 'web app not built; serving the API only');
    return null;
  }
  const indexHtml = readFileSync(indexFile, 'utf8');

  // The built files are the same for every page that loads them, and only pages of this origin
  // do: no CORS, so no `Vary: Origin`. A module script is fetched with an Origin header and a
  // fetch() of the same file without one; with that Vary, the browser's cache held them apart and
  // the upload app's offline copy (which fetch()es what the page loaded) downloaded it all again.
  app.addHook('onRoute', (route) => {
    if (route.config !== undefined && 'file' in route.config) {
      // @fastify/cors reads `config.cors` of a route, but does not declare it.
      route.config = { ...route.config, cors: false };
    }
  });
  await app.register(fastifyStatic, {
    root: config.web.distDir,
    index: false,
    wildcard: false,
    // The build writes .br and .gz copies of scripts and styles (apps/web/vite.config.ts).
    preCompressed: true,
    setHeaders(reply, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      if (immutable && WORKER_SCRIPT.test(filePath))
        reply.header('Content-Security-Policy', WORKER_CSP);
      reply.header(
        'Cache-Control',
        immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      );
    },
  });

  const sendIndex = (reply: FastifyReply) => {
    const nonce = randomBytes(16).toString('base64');
    return reply
      .header('Content-Security-Policy', webAppCsp(nonce, config))
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml.replace(NONCE_PLACEHOLDER, nonce));
  };

  // fastify-static (wildcard: false) has a route for every built file; any other GET outside
  // /api is a client-side route.
  return (request, reply) => {
    const url = request.url;
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) return null;
    return sendIndex(reply);
  };
}
