import path from 'node:path';
import { z } from 'zod';
import { bool, csv, invalid } from './env.js';

/** The HTTP server: where it listens, the addresses it is reached at, its logs and DATA_DIR. */
export const serverEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  API_PUBLIC_URL: z.url().optional(),
  WEB_ORIGINS: csv.optional(),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  DATA_DIR: z.string().default('./data'),
  /** How long a stopping API process lets requests in flight finish (SIGTERM, SIGINT). */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
  SERVE_WEB: bool.default(true),
  WEB_DIST_DIR: z.string().optional(),
});

export function serverConfig(e: z.output<typeof serverEnv>) {
  if (e.PORT === 0 && !e.PUBLIC_URL) {
    // Links in e-mails, the allowed web origin and the sign-in redirects are built from it.
    throw invalid(
      'PUBLIC_URL',
      'required when PORT=0 (a port chosen at start-up), since links and the allowed origin name the port',
    );
  }
  const publicUrl = stripSlash(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    /** Origin of the web app, used in links in e-mails. */
    publicUrl,
    /** Base URL of the API as browsers reach it (signed download links). */
    apiPublicUrl: stripSlash(e.API_PUBLIC_URL ?? `${publicUrl}/api`),
    webOrigins: e.WEB_ORIGINS ?? [new URL(publicUrl).origin],
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    /** auto: readable lines on a terminal, JSON lines otherwise. */
    logFormat: e.LOG_FORMAT,
    dataDir: path.resolve(e.DATA_DIR),
    /** Milliseconds a stopping API process waits for requests in flight before cutting them. */
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    web: {
      serve: e.SERVE_WEB,
      distDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../../web/dist')),
    },
  };
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
