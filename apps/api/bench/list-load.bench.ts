// Authenticated lists under load: 50 keep-alive connections for 8 s (a load generator in its own
// process, apps/api/bench/load-client.mjs) on a page of 20 teams, collections and files through
// the whole API (bearer token, membership, access, keyset query, presentation, serialisation),
// against a bare Fastify server answering the same keyset query over the same rows of the same
// SQLite file through the same driver as the API (apps/api/src/db/sqlite.ts: better-sqlite3 on
// Node 20, node:sqlite on Node 24) as it comes, rows made by the driver (BENCH_BARE_ARRAY_ROWS=1
// gives it the API's own row making), and no authentication, measured alternately in the same
// run.
// Each server is measured in BENCH_LIST_ROUNDS alternate rounds (3), and its median round counts.
// Goal: the API at least 0.5 of the bare server's requests per second, with no error.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { startSession } from '../src/auth/sessions.js';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/db/ids.js';
import { openSqlite } from '../src/db/sqlite.js';
import { createServer } from '../src/server.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import { createTestDatabase } from '../test/helpers/test-db.js';

const ROWS = 40;
const PAGE = 20;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Alternate rounds per list; the median round of each server is reported. */
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 3);

interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

/** The run with the median rate (the lower middle one for an even count). */
function median(runs: LoadResult[]): LoadResult {
  const sorted = [...runs].sort((a, b) => a.rps - b.rps);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!middle) throw new Error('no run to take the median of');
  return middle;
}

export interface LoadRow {
  name: string;
  ms: number;
  ratio: number;
  unit?: string;
}

function load(url: string, authorization?: string, seconds = SECONDS): Promise<LoadResult> {
  const client = path.join(import.meta.dirname, 'load-client.mjs');
  const args = [client, url, String(CONNECTIONS), String(seconds)];
  if (authorization) args.push(authorization);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`load client exited with ${code}`));
      else resolve(JSON.parse(out) as LoadResult);
    });
  });
}

export async function benchListLoad(): Promise<LoadRow[]> {
  const database = await createTestDatabase();
  if (database.config.kind !== 'sqlite') throw new Error('the list-load bench runs on SQLite');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'warn',
    SERVE_WEB: 'false',
    // The limit per address would refuse a load test from one address; everything else is as
    // configured by default.
    RATE_LIMIT_MAX: '100000000',
  });
  config.database = database.config;
  const server = await createServer(config, { worker: false });
  const { ctx, app } = server;
  const bare = Fastify({ logger: false });
  const { database: sqlite } = openSqlite(database.config.file, 'auto', {
    arrayRows: process.env.BENCH_BARE_ARRAY_ROWS === '1',
  });
  try {
    // One person in 40 teams; the first holds 40 collections, the first of those 40 files.
    const owner = await createUser(ctx, { email: 'load@example.com', nickname: 'Load' });
    const teams: string[] = [];
    for (let i = 0; i < ROWS; i++)
      teams.push((await createTeam(ctx, { owner, name: `Team ${i}` })).id);
    const teamId = teams[0] ?? '';
    const now = Date.now();
    const collections = Array.from({ length: ROWS }, (_, i) => ({
      id: newId(),
      team_id: teamId,
      name: `Collection ${i}`,
      description: 'Photos of the spring concert',
      mode: 'collaborative' as const,
      status: 'ready' as const,
      files_count: i === ROWS - 1 ? ROWS : 0,
      created_at: now - ROWS + i,
      created_by: owner.id,
      updated_at: now - ROWS + i,
      updated_by: owner.id,
    }));
    await ctx.db.insertInto('collections').values(collections).execute();
    const collectionId = collections.at(-1)?.id ?? '';
    await ctx.db
      .insertInto('files')
      .values(
        Array.from({ length: ROWS }, (_, i) => {
          const id = newId();
          return {
            id,
            team_id: teamId,
            collection_id: collectionId,
            name: `photo-${i}.jpg`,
            original_name: `photo-${i}.jpg`,
            content_type: 'image/jpeg',
            size: 1_000_000,
            sha256: '0'.repeat(64),
            storage_key: `teams/${teamId}/collections/${collectionId}/${id}/original`,
            uploaded_by: owner.id,
            rendition_status: 'none' as const,
            thumbnail_key: null,
            preview_key: null,
            width: null,
            height: null,
            created_at: now - ROWS + i,
            updated_at: now - ROWS + i,
          };
        }),
      )
      .execute();
    await sql`analyze`.execute(ctx.db);
    const token = (await startSession(ctx, owner, { identityProvider: false })).AccessToken;

    // The bare server: the same keyset page (20 rows and one more to know whether a next page
    // exists) over the same rows, serialised by Fastify.
    const page = (rows: unknown[]) => ({ items: rows.slice(0, PAGE), more: rows.length > PAGE });
    const teamsQuery = sqlite.prepare(
      `select teams.*, team_members.role as member_role from teams
       join team_members on team_members.team_id = teams.id
       where team_members.user_id = ? and team_members.status = 'active'
       order by teams.created_at desc, teams.id desc limit ${PAGE + 1}`,
    );
    const collectionsQuery = sqlite.prepare(
      `select * from collections where team_id = ?
       order by updated_at desc, id desc limit ${PAGE + 1}`,
    );
    const filesQuery = sqlite.prepare(
      `select * from files where collection_id = ?
       order by updated_at desc, id desc limit ${PAGE + 1}`,
    );
    bare.get('/teams', () => page(teamsQuery.all([owner.id])));
    bare.get('/collections', () => page(collectionsQuery.all([teamId])));
    bare.get('/files', () => page(filesQuery.all([collectionId])));
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
    const apiUrl = await app.listen({ host: '127.0.0.1', port: 0 });

    const lists = [
      { name: 'teams', api: '/api/teams', bare: '/teams', key: 'teams' },
      {
        name: 'collections',
        api: `/api/teams/${teamId}/collections`,
        bare: '/collections',
        key: 'collections',
      },
      {
        name: 'files',
        api: `/api/teams/${teamId}/collections/${collectionId}/files`,
        bare: '/files',
        key: 'files',
      },
    ];
    const authorization = `Bearer ${token}`;
    // Every list answers a full page, on both servers, before anything is measured.
    for (const list of lists) {
      const res = await fetch(`${apiUrl}${list.api}`, { headers: { authorization } });
      const body = (await res.json()) as Record<string, unknown[]>;
      if (res.status !== 200 || body[list.key]?.length !== PAGE)
        throw new Error(`${list.api} answered ${res.status} without a page of ${PAGE}`);
      const bareRes = await fetch(`${bareUrl}${list.bare}`);
      const bareBody = (await bareRes.json()) as { items?: unknown[] };
      if (bareRes.status !== 200 || bareBody.items?.length !== PAGE)
        throw new Error(`${list.bare} answered ${bareRes.status} without a page of ${PAGE}`);
    }

    const rows: LoadRow[] = [];
    for (const list of lists) {
      // Warm both up, then measure them alternately, the bare server first in each round; the
      // median round of each stands for it (single runs move by a third on this machine).
      await load(`${bareUrl}${list.bare}`, undefined, 2);
      await load(`${apiUrl}${list.api}`, authorization, 2);
      const bareRuns: LoadResult[] = [];
      const apiRuns: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bareRuns.push(await load(`${bareUrl}${list.bare}`));
        apiRuns.push(await load(`${apiUrl}${list.api}`, authorization));
      }
      const errors = (runs: LoadResult[]) => runs.reduce((n, r) => n + r.errors, 0);
      if (errors(apiRuns) || errors(bareRuns))
        throw new Error(
          `${list.name}: ${errors(apiRuns)} API errors, ${errors(bareRuns)} baseline errors`,
        );
      const baseline = median(bareRuns);
      const api = median(apiRuns);
      const spread = (runs: LoadResult[]) =>
        `${Math.round(Math.min(...runs.map((r) => r.rps)))}–${Math.round(Math.max(...runs.map((r) => r.rps)))}`;
      rows.push(
        {
          name: `${list.name}: bare Fastify (p99 ${baseline.p99.toFixed(0)} ms; ${spread(bareRuns)})`,
          ms: baseline.rps,
          unit: 'req/s',
          ratio: 1,
        },
        {
          name: `${list.name}: API (p99 ${api.p99.toFixed(0)} ms; ${spread(apiRuns)})`,
          ms: api.rps,
          unit: 'req/s',
          ratio: api.rps / baseline.rps,
        },
      );
    }
    return rows;
  } finally {
    await bare.close();
    sqlite.close();
    await server.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
