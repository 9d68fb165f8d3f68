// Authenticated lists under load: 50 keep-alive connections for 8 s (a load generator in its own
// process, apps/api/bench/load-client.mjs) on a page of 20 teams, collections and files through
// the whole API (bearer token, membership, access, keyset query, presentation, serialisation).
// Beside it, on a bare Fastify server in the same process over the same SQLite file through the
// same driver (apps/api/src/db/sqlite.ts), with no authentication:
// - the bare page: the keyset query alone (21 rows read, 20 sent), for reference;
// - for the collections page, the floor: the seven statements the API runs for that page and the
//   same fields presented, with no framework around them (collectionsFloor below).
// Each server is measured in BENCH_LIST_ROUNDS alternate rounds (3), and its median round counts.
// Goals: the API's p99 at most 50 ms on every list, and the API at least 0.7 of the floor's
// requests per second; no error. The bench prints both and whether they hold.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import Fastify from 'fastify';
import { sql, type SqliteDatabase } from 'kysely';
import { startSession } from '../src/auth/sessions.js';
import { presentDeadline } from '../src/collections/deadlines.js';
import { encodeCursor } from '../src/db/pagination.js';
import { openSqlite } from '../src/db/sqlite.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import { collectionRow, fileRows, startBenchServer } from './bench-world.js';

const ROWS = 40;
const PAGE = 20;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Alternate rounds per list; the median round of each server is reported. */
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 3);
/** Goals: the API's p99 (ms) on every list, and its rate against the floor's. */
const P99_GOAL_MS = 50;
const FLOOR_GOAL = 0.7;

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
  const { database, server, close } = await startBenchServer({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    // The limit per address would refuse a load test from one address; everything else is as
    // configured by default.
    RATE_LIMIT_MAX: '100000000',
  });
  if (database.config.kind !== 'sqlite') {
    await close();
    throw new Error('the list-load bench runs on SQLite');
  }
  const { ctx, app } = server;
  const bare = Fastify({ logger: false });
  const { database: sqlite } = openSqlite(database.config.file);
  try {
    // One person in 40 teams; the first holds 40 collections, the first of those 40 files.
    const owner = await createUser(ctx, { email: 'load@example.com', nickname: 'Load' });
    const teams: string[] = [];
    for (let i = 0; i < ROWS; i++)
      teams.push((await createTeam(ctx, { owner, name: `Team ${i}` })).id);
    const teamId = teams[0] ?? '';
    const now = Date.now();
    const collections = Array.from({ length: ROWS }, (_, i) =>
      collectionRow(teamId, owner.id, now - ROWS + i, {
        name: `Collection ${i}`,
        description: 'Photos of the spring concert',
        files_count: i === ROWS - 1 ? ROWS : 0,
      }),
    );
    await ctx.db.insertInto('collections').values(collections).execute();
    const collectionId = collections.at(-1)?.id ?? '';
    await ctx.db
      .insertInto('files')
      .values(fileRows(teamId, collectionId, owner.id, ROWS, now))
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
    bare.get('/collections-floor', collectionsFloor(sqlite, owner.id, teamId));
    const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
    const apiUrl = await app.listen({ host: '127.0.0.1', port: 0 });

    const lists: { name: string; api: string; bare: string; floor?: string; key: string }[] = [
      { name: 'teams', api: '/api/teams', bare: '/teams', key: 'teams' },
      {
        name: 'collections',
        api: `/api/teams/${teamId}/collections`,
        bare: '/collections',
        floor: '/collections-floor',
        key: 'collections',
      },
      {
        name: 'files',
        api: `/api/teams/${teamId}/collections/${collectionId}/files`,
        bare: '/files',
        key: 'files',
      },
    ];
    // BENCH_LISTS=collections,files measures only those lists.
    const only = process.env.BENCH_LISTS?.split(',').map((name) => name.trim());
    const measured = only ? lists.filter((list) => only.includes(list.name)) : lists;
    const authorization = `Bearer ${token}`;
    // Every list answers a full page, on both servers, before anything is measured.
    for (const list of lists) {
      const res = await fetch(`${apiUrl}${list.api}`, { headers: { authorization } });
      const body = (await res.json()) as Record<string, unknown[]>;
      if (res.status !== 200 || body[list.key]?.length !== PAGE)
        throw new Error(`${list.api} answered ${res.status} without a page of ${PAGE}`);
      if (list.floor !== undefined) {
        // The floor answers what the API answers, or it would not bound it.
        const floorRes = await fetch(`${bareUrl}${list.floor}`);
        assert.deepStrictEqual(
          await floorRes.json(),
          body,
          `${list.floor} differs from ${list.api}`,
        );
      }
      const bareRes = await fetch(`${bareUrl}${list.bare}`);
      const bareBody = (await bareRes.json()) as { items?: unknown[] };
      if (bareRes.status !== 200 || bareBody.items?.length !== PAGE)
        throw new Error(`${list.bare} answered ${bareRes.status} without a page of ${PAGE}`);
    }

    const rows: LoadRow[] = [];
    for (const list of measured) {
      // Warm both up, then measure them alternately, the bare server first in each round; the
      // median round of each stands for it (single runs move by a third on this machine).
      const floorUrl = list.floor === undefined ? null : `${bareUrl}${list.floor}`;
      await load(`${bareUrl}${list.bare}`, undefined, 2);
      if (floorUrl) await load(floorUrl, undefined, 2);
      await load(`${apiUrl}${list.api}`, authorization, 2);
      const bareRuns: LoadResult[] = [];
      const floorRuns: LoadResult[] = [];
      const apiRuns: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bareRuns.push(await load(`${bareUrl}${list.bare}`));
        if (floorUrl) floorRuns.push(await load(floorUrl));
        apiRuns.push(
          await profiled(`${list.name}-api`, () => load(`${apiUrl}${list.api}`, authorization)),
        );
      }
      const errors = (runs: LoadResult[]) => runs.reduce((n, r) => n + r.errors, 0);
      if (errors(apiRuns) || errors(bareRuns) || errors(floorRuns))
        throw new Error(
          `${list.name}: ${errors(apiRuns)} API errors, ${errors(bareRuns)} baseline errors, ${errors(floorRuns)} floor errors`,
        );
      const baseline = median(bareRuns);
      const api = median(apiRuns);
      const spread = (runs: LoadResult[]) =>
        `${Math.round(Math.min(...runs.map((r) => r.rps)))}–${Math.round(Math.max(...runs.map((r) => r.rps)))}`;
      rows.push({
        name: `${list.name}: bare page (p99 ${baseline.p99.toFixed(0)} ms; ${spread(bareRuns)})`,
        ms: baseline.rps,
        unit: 'req/s',
        ratio: 1,
      });
      const p99Met = api.p99 <= P99_GOAL_MS;
      let floorVerdict = '';
      if (floorRuns.length) {
        const floor = median(floorRuns);
        const ofFloor = api.rps / floor.rps;
        floorVerdict = `; x${ofFloor.toFixed(2)} of the floor, goal >= ${FLOOR_GOAL}: ${ofFloor >= FLOOR_GOAL ? 'met' : 'NOT met'}`;
        rows.push({
          name: `${list.name}: floor, its statements without the API (p99 ${floor.p99.toFixed(0)} ms; ${spread(floorRuns)})`,
          ms: floor.rps,
          unit: 'req/s',
          ratio: floor.rps / baseline.rps,
        });
      }
      rows.push({
        name: `${list.name}: API (p99 ${api.p99.toFixed(0)} ms, goal <= ${P99_GOAL_MS}: ${p99Met ? 'met' : 'NOT met'}${floorVerdict}; ${spread(apiRuns)})`,
        ms: api.rps,
        unit: 'req/s',
        ratio: api.rps / baseline.rps,
      });
    }
    return rows;
  } finally {
    await bare.close();
    sqlite.close();
    await close();
  }
}

type Row = Record<string, unknown>;

/** BENCH_PROFILE=DIR writes a CPU profile of each measured API round there (open in DevTools). */
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/**
 * Not a baseline but a floor: what the API's page of collections does at the least, run straight
 * on the bare server's connection — the statements the API runs for it (the caller, the team, the
 * membership, the page, its tags, the caller's read marks, the members' names; their SQL as the API
 * compiles it) and the same fields presented, serialised by Fastify's JSON.stringify, with no
 * token, hooks, validation, schema or headers around them. The API cannot serve this page faster
 * than this with the same statements.
 */
function collectionsFloor(sqlite: SqliteDatabase, userId: string, teamId: string) {
  const inList = Array.from({ length: PAGE }, () => '?').join(', ');
  const all = (text: string) => {
    const statement = sqlite.prepare(text);
    return (...parameters: unknown[]) => statement.all(parameters) as Row[];
  };
  const user = all('select * from "users" where "id" = ?');
  const team = all('select * from "teams" where "id" = ?');
  const membership = all('select * from "team_members" where "team_id" = ? and "user_id" = ?');
  const pageQuery = all(
    'select "collections".*, "collections"."updated_at" as "sort_at" from "collections" where "collections"."team_id" = ? order by "collections"."updated_at" desc, "collections"."id" desc limit ?',
  );
  const tagsQuery = all(
    `select "collection_id", "user_id" from "collection_tags" where "collection_id" in (${inList}) order by "collection_id", "position"`,
  );
  const readsQuery = all(
    `select "collection_id", "read_at" from "collection_reads" where "collection_id" in (${inList}) and "user_id" = ?`,
  );
  const refsQuery = all(
    'select "users"."id" as "user_id", "users"."avatar_url", (select coalesce("team_members"."nickname", "users"."nickname", "users"."username") as "member_name" from "team_members" where "team_members"."user_id" = "users"."id" and "team_members"."team_id" = ?) as "nickname" from "users" where "users"."id" in (?)',
  );
  return () => {
    const caller = user(userId)[0];
    const theTeam = team(teamId)[0];
    if (!caller || !theTeam || !membership(teamId, userId)[0]) throw new Error('no access');
    const found = pageQuery(teamId, PAGE + 1);
    const rows = found.slice(0, PAGE);
    const last = rows.at(-1);
    const ids = rows.map((r) => r.id);
    const tags = new Map<unknown, unknown[]>();
    for (const t of tagsQuery(...ids))
      tags.set(t.collection_id, [...(tags.get(t.collection_id) ?? []), t.user_id]);
    const reads = new Map<unknown, number>();
    for (const r of readsQuery(...ids, userId)) reads.set(r.collection_id, r.read_at as number);
    // Every collection here was created by the caller, as the API's statement is compiled for.
    const refs = new Map<unknown, Row>();
    for (const r of refsQuery(teamId, userId))
      refs.set(r.user_id, { userId: r.user_id, nickname: r.nickname, avatarUrl: r.avatar_url });
    const member = (id: unknown) => refs.get(id) ?? { userId: id, nickname: null, avatarUrl: null };
    return {
      collections: rows.map((r) => {
        const tagged = tags.get(r.id) ?? [];
        const readAt = reads.get(r.id);
        return {
          teamId: r.team_id,
          collectionId: r.id,
          name: r.name,
          description: r.description,
          mode: r.mode,
          status: r.status,
          tags: tagged,
          taggedMembers: tagged.map(member),
          createdBy: r.created_by,
          owner: member(r.created_by),
          createdAt: new Date(r.created_at as number).toISOString(),
          updatedAt: new Date(r.updated_at as number).toISOString(),
          updatedBy: r.updated_by,
          readAt: readAt === undefined ? null : new Date(readAt).toISOString(),
          filesCount: r.files_count,
          deadline: presentDeadline({
            deadline_at: r.deadline_at as number | null,
            deadline_zone: r.deadline_zone as string | null,
          }),
          allowLateUploads: r.allow_late_uploads === 1,
        };
      }),
      pagination: {
        lastKey:
          found.length > PAGE && last
            ? encodeCursor(last.sort_at as number, last.id as string)
            : null,
      },
    };
  };
}
