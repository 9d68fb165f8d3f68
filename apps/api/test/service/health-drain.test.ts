import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readyResponseSchema } from '@raccolta/contracts';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createDb } from '../../src/db/create-db.js';
import { migrateToLatest, migrationsAtHead } from '../../src/db/migrate.js';
import { createServer, type Server } from '../../src/server.js';
import { createTestDatabase } from '../helpers/test-db.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const opened: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()?.close();
});

async function server(env: Record<string, string> = {}): Promise<TestServer> {
  const started = await startTestServer(env);
  opened.push(started);
  return started;
}

async function listen(started: Server): Promise<string> {
  await started.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = started.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** A POST whose body arrives in two halves, the second only when `finish` is called. */
function slowRequest(origin: string, path: string) {
  const body = Buffer.from(
    JSON.stringify({ email: 'slow@example.com', padding: 'x'.repeat(2000) }),
  );
  let finish = () => {};
  const answer = new Promise<{ status: number } | { error: string }>((resolve) => {
    const req = httpRequest(
      `${origin}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.write(body.subarray(0, 100));
    finish = () => req.end(body.subarray(100));
  });
  return { answer, finish: () => finish() };
}

function connect(origin: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${origin}/api/health/live`, (res) => {
      res.resume();
      resolve(String(res.statusCode));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

describe('health probes', () => {
  it('live answers 200; ready says what is missing with 503', async () => {
    const s = await server();
    expect((await s.app.inject('/api/health/live')).json()).toEqual({ status: 'ok' });
    const ready = await s.app.inject('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(readyResponseSchema.parse(ready.json())).toEqual({ status: 'ready', problems: [] });

    const health = s.ctx.storage.health.bind(s.ctx.storage);
    s.ctx.storage.health = () => Promise.reject(new Error('disk gone'));
    try {
      const down = await s.app.inject('/api/health/ready');
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual({ status: 'unavailable', problems: ['storage'] });
    } finally {
      s.ctx.storage.health = health;
    }

    // A node running newer code than the schema (its migrations not run yet) is not ready.
    const last = await s.ctx.db
      .selectFrom('kysely_migration' as never)
      .select(sql<string>`name`.as('name'))
      .orderBy(sql`name`, 'desc')
      .executeTakeFirstOrThrow();
    await sql`delete from kysely_migration where name = ${last.name}`.execute(s.ctx.db);
    const behind = await s.app.inject('/api/health/ready');
    expect(behind.statusCode).toBe(503);
    expect(behind.json()).toEqual({ status: 'unavailable', problems: ['migrations'] });
    await sql`insert into kysely_migration (name, timestamp) values (${last.name}, ${new Date().toISOString()})`.execute(
      s.ctx.db,
    );
    expect((await s.app.inject('/api/health/ready')).statusCode).toBe(200);
  });

  it('answers the request id a trusted proxy gives, and makes one otherwise', async () => {
    const trusted = await server({ TRUST_PROXY: 'true' });
    const given = await trusted.app.inject({
      url: '/api/users/@me',
      headers: { 'x-request-id': 'nginx-4f2a.77' },
    });
    expect(given.headers['x-request-id']).toBe('nginx-4f2a.77');
    expect(given.json()).toMatchObject({ requestId: 'nginx-4f2a.77' });
    // Not an id: a line break would forge a log line.
    const forged = await trusted.app.inject({
      url: '/api/health/live',
      headers: { 'x-request-id': 'a\nb' },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    const direct = await server();
    const ignored = await direct.app.inject({
      url: '/api/health/live',
      headers: { 'x-request-id': 'from-the-client' },
    });
    expect(ignored.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('draining (SIGTERM)', () => {
  it('turns readiness to 503 at once, refuses new connections and lets requests in flight finish', async () => {
    const s = await server({ SHUTDOWN_GRACE_SECONDS: '30' });
    const origin = await listen(s);
    const inFlight = slowRequest(origin, '/api/subscriptions');
    await new Promise((resolve) => setTimeout(resolve, 100));

    const drainStarted = Date.now();
    const drained = s.drain(30_000);
    expect(s.ctx.lifecycle.draining).toBe(true);
    // What a probe that still reaches the node reads.
    const ready = await s.app.inject('/api/health/ready').catch(() => null);
    if (ready) expect(ready.statusCode).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await connect(origin)).toBe('ECONNREFUSED');

    inFlight.finish();
    const answer = await inFlight.answer;
    expect(answer).toHaveProperty('status');
    expect((answer as { status: number }).status).toBeLessThan(500);
    await drained;
    // Its connection closed with the answer: the node did not wait for it to idle out.
    expect(Date.now() - drainStarted).toBeLessThan(2_000);
  });

  it('cuts what still runs when the grace period is over', async () => {
    const s = await server();
    const origin = await listen(s);
    const stalled = slowRequest(origin, '/api/subscriptions');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await s.drain(300);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await stalled.answer).toEqual({ error: 'ECONNRESET' });
  });
});

describe('request limits across nodes (RATE_LIMIT_STORE=database)', () => {
  it('two API processes on one database share one count per address', async () => {
    const env = { RATE_LIMIT_STORE: 'database', RATE_LIMIT_MAX: '6' };
    const a = await server(env);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: a.dataDir,
      APP_SECRET: a.config.secret,
      LOG_LEVEL: 'silent',
      SERVE_WEB: 'false',
      ...env,
    });
    config.database = a.config.database;
    config.storage = a.config.storage;
    const b = await createServer(config, { worker: false });
    opened.unshift(b);

    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const node = i % 2 === 0 ? a : b;
      statuses.push((await node.app.inject('/api/client-config')).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);

    // In memory (the single-node default) each process counts for itself.
    const c = await server({ RATE_LIMIT_MAX: '6' });
    expect(c.config.rateLimit.store).toBe('memory');
  });
});

describe('processes started together on an empty database', () => {
  it('migrate once: every one comes up, the schema at its head', async () => {
    const database = await createTestDatabase();
    const dbs = Array.from({ length: 4 }, () => createDb(database.config));
    try {
      const results = await Promise.allSettled(dbs.map((db) => migrateToLatest(db)));
      expect(
        results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'ok')),
      ).toEqual(Array(4).fill('ok'));
      const applied = results.flatMap((result) =>
        result.status === 'fulfilled' ? (result.value.results ?? []) : [],
      );
      // Each migration ran in exactly one of them.
      const names = applied.map((migration) => migration.migrationName);
      expect(new Set(names).size).toBe(names.length);
      expect(names.length).toBeGreaterThan(10);
      for (const db of dbs) expect(await migrationsAtHead(db)).toBe(true);
    } finally {
      for (const db of dbs) await db.destroy();
      await database.drop();
    }
  });
});
