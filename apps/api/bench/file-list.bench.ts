// Listing a 100,000-file collection through the whole API (authentication, team and collection
// access, keyset query, uploader names, read marks, serialisation): page 5,000 must cost what
// page 1 costs, both under 20 ms at the median. Baseline: page 1 in the same run, same database.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { startSession } from '../src/auth/sessions.js';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/db/ids.js';
import { createServer } from '../src/server.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import { createTestDatabase } from '../test/helpers/test-db.js';

const FILES = 100_000;
const DEPTH_PAGE = 5_000;
const RUNS = 200;
const WARMUP = 20;

export interface BenchRow {
  name: string;
  ms: number;
  ratio: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export async function benchFileList(kind: 'sqlite' | 'postgres'): Promise<BenchRow[]> {
  const previous = process.env.RACCOLTA_TEST_DB;
  if (kind === 'postgres') process.env.RACCOLTA_TEST_DB = 'postgres';
  else delete process.env.RACCOLTA_TEST_DB;
  const database = await createTestDatabase();
  if (previous === undefined) delete process.env.RACCOLTA_TEST_DB;
  else process.env.RACCOLTA_TEST_DB = previous;

  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    RATE_LIMIT_MAX: '1000000',
  });
  config.database = database.config;
  const server = await createServer(config, { worker: false });
  const { ctx, app } = server;
  try {
    const owner = await createUser(ctx, { email: 'bench@example.com', nickname: 'Bench' });
    const team = await createTeam(ctx, { owner });
    const collectionId = newId();
    const now = Date.now();
    await ctx.db
      .insertInto('collections')
      .values({
        id: collectionId,
        team_id: team.id,
        name: 'Bench',
        description: null,
        mode: 'collaborative',
        status: 'ready',
        files_count: FILES,
        created_at: now,
        created_by: owner.id,
        updated_at: now,
        updated_by: owner.id,
      })
      .execute();
    // Oldest first, one millisecond apart, so the newest-first list is a plain reverse scan.
    const rows = Array.from({ length: FILES }, (_, i) => {
      const id = newId();
      return {
        id,
        team_id: team.id,
        collection_id: collectionId,
        name: `photo-${i}.jpg`,
        original_name: `photo-${i}.jpg`,
        content_type: 'image/jpeg',
        size: 1_000_000,
        sha256: '0'.repeat(64),
        storage_key: `teams/${team.id}/collections/${collectionId}/${id}/original`,
        uploaded_by: owner.id,
        rendition_status: 'none' as const,
        thumbnail_key: null,
        preview_key: null,
        width: null,
        height: null,
        created_at: now - FILES + i,
        updated_at: now - FILES + i,
      };
    });
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
    await server.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
