// Listing a 100,000-file collection through the whole API (authentication, team and collection
// access, keyset query, uploader names, read marks, serialisation): page 5,000 must cost what
// page 1 costs, both under 20 ms at the median. Baseline: page 1 in the same run, same database.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { startSession } from '../src/auth/sessions.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import { collectionRow, fileRows, startBenchServer, type BenchServer } from './bench-world.js';

const FILES = 100_000;
const DEPTH_PAGE = 5_000;
const RUNS = 200;
const WARMUP = 20;

export interface BenchRow {
  name: string;
  ms: number;
  ratio: number;
  /** What `ms` counts when it is not milliseconds ('#', 'KB'). */
  unit?: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function benchFileList(kind: 'sqlite' | 'postgres'): Promise<BenchRow[]> {
  const previous = process.env.RACCOLTA_TEST_DB;
  if (kind === 'postgres') process.env.RACCOLTA_TEST_DB = 'postgres';
  else delete process.env.RACCOLTA_TEST_DB;
  let bench: BenchServer;
  try {
    bench = await startBenchServer({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_MAX: '1000000',
    });
  } finally {
    if (previous === undefined) delete process.env.RACCOLTA_TEST_DB;
    else process.env.RACCOLTA_TEST_DB = previous;
  }
  const { server, close } = bench;
  const { ctx, app } = server;
  try {
    const owner = await createUser(ctx, { email: 'bench@example.com', nickname: 'Bench' });
    const team = await createTeam(ctx, { owner });
    const now = Date.now();
    const collection = collectionRow(team.id, owner.id, now, { files_count: FILES });
    const collectionId = collection.id;
    await ctx.db.insertInto('collections').values(collection).execute();
    // Oldest first, one millisecond apart, so the newest-first list is a plain reverse scan.
    const rows = fileRows(team.id, collectionId, owner.id, FILES, now);
    for (let i = 0; i < rows.length; i += 1000)
      await ctx.db
        .insertInto('files')
        .values(rows.slice(i, i + 1000))
        .execute();
    await sql`analyze`.execute(ctx.db);

    const token = (await startSession(ctx, owner, { identityProvider: false })).AccessToken;
    const base = `/api/teams/${team.id}/collections/${collectionId}/files`;
    const get = async (url: string) => {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
      return res.json<{ files: { fileId: string }[]; pagination: { lastKey: string | null } }>();
    };
    // The cursor of page 5,000 is the one the server hands out after page 4,999: walk there once.
    let lastKey: string | null = null;
    for (let page = 1; page < DEPTH_PAGE; page++) {
      const body = await get(lastKey ? `${base}?lastKey=${lastKey}` : base);
      lastKey = body.pagination.lastKey;
    }
    if (!lastKey) throw new Error('ran out of pages');
    const deepUrl = `${base}?lastKey=${lastKey}`;

    const time = async (url: string): Promise<number> => {
      for (let i = 0; i < WARMUP; i++) await get(url);
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        await get(url);
        samples.push(performance.now() - started);
      }
      return median(samples);
    };
    const first = await time(base);
    const deep = await time(deepUrl);
    return [
      { name: 'page 1 (baseline)', ms: first, ratio: 1 },
      { name: `page ${DEPTH_PAGE.toLocaleString('en')}`, ms: deep, ratio: deep / first },
    ];
  } finally {
    await close();
  }
}
