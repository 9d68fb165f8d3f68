import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/app-error.js';

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

const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/**
 * Security headers, CORS and rate limiting. API responses get a CSP that allows nothing (they are
 * JSON); the web app's HTML sets its own nonce-based CSP (web-app.ts), and the API docs UI its own.
 * Every response carries PERMISSIONS_POLICY; every API response that sets no caching of its own
 * (signed file links do) is `Cache-Control: no-store`, as tokens and personal data must not be
 * kept by browsers or proxies.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
    if (isApiPath(request.url) && !reply.hasHeader('cache-control')) {
      reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });

  // Helmet's headers, worked out once: its middleware is built here, not per request (the
  // Fastify wrapper rebuilt it, and re-derived every header, on each one).
  const applyHelmet = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
    strictTransportSecurity: config.publicUrl.startsWith('https:'),
  });
  app.addHook('onRequest', (request, reply, done) => {
    applyHelmet(request.raw, reply.raw, () => done());
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
