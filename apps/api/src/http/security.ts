import { IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/app-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors's options for one route, over the global ones (it reads them there). */
    cors?: FastifyCorsOptions | false;
  }
}

/**
 * Browser features no page of Raccolta uses. The upload app takes photos through
 * `<input type=file capture>`, which hands over to the system camera and needs no permission, so
 * camera=() holds for it too.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
].join(', ');

type Middleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/** The headers a middleware that only sets headers sets, whatever the request. */
export function headersOf(middleware: Middleware): Record<string, string> {
  const headers = new Map<string, string>();
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  middleware(new IncomingMessage(new Socket()), response as unknown as ServerResponse, (error) => {
    if (error !== undefined) {
      throw error instanceof Error ? error : new Error('the middleware failed', { cause: error });
    }
  });
  return Object.fromEntries(headers);
}

/** Helmet's middleware as Raccolta configures it. */
export function helmetFor(config: Pick<Config, 'publicUrl'>): Middleware {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
}

const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/**
 * Security headers, CORS and rate limiting. API responses get a CSP that allows nothing (they are
 * JSON); the web app's HTML sets its own nonce-based CSP (web-app.ts), and the API docs UI its own.
 * Every response carries PERMISSIONS_POLICY; every API response that sets no caching of its own
 * (signed file links do) is `Cache-Control: no-store`, as tokens and personal data must not be
 * kept by browsers or proxies.
 */
export async function registerSecurity(
  app: FastifyInstance,
  config: Config,
  rateLimitStore?: FastifyRateLimitStoreCtor,
): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    if (isApiPath(request.url) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });

  // Helmet's headers depend on no request: worked out once, and set on each reply with Fastify's
  // own headers (written in one go with the answer) rather than by helmet's middleware, which
  // set each on the Node response one by one, every time.
  const helmetHeaders = headersOf(helmetFor(config));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(helmetHeaders);
    done();
  });

  await app.register(cors, {
    origin: config.webOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Range',
      'Tus-Resumable',
      'Upload-Length',
      'Upload-Offset',
      'Upload-Metadata',
      'Upload-Checksum',
      // tus-js-client's overridePatchMethod: a POST that stands for a PATCH.
      'X-HTTP-Method-Override',
    ],
    exposedHeaders: [
      'Content-Disposition',
      'Content-Range',
      'Location',
      'Upload-Offset',
      'Upload-Length',
      'Upload-Expires',
      'Upload-Metadata',
      'Tus-Resumable',
    ],
    maxAge: 600,
  });

  // Routes opt into stricter limits with `config: { rateLimit: { max, timeWindow } }`.
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    // Without a store, each process counts in its own memory (one node).
    ...(rateLimitStore ? { store: rateLimitStore } : {}),
    // The web app's built files (scripts, styles, icons: the only routes outside /api) are
    // static, precompressed and cached for a year; a page load fetches dozens of them, so counting
    // them would lock out a few people browsing from one office or school address within minutes.
    // Client-side routes (index.html) and unknown paths still count: they reach the not-found
    // handler, which has no route.
    allowList: (request) => request.routeOptions.url !== undefined && !isApiPath(request.url),
    errorResponseBuilder: (_request, context) =>
      new AppError('tooManyRequests', {
        message: `Too many requests; retry in ${context.after}`,
        data: { retryAfterMs: context.ttl },
      }),
  });
}
