// Keyset pagination: page 5,000 must cost what page 1 costs. Baseline: page 1 in the same run.
// OFFSET paging at the same depth is measured for contrast.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createDb } from '../src/db/create-db.js';
import { newId } from '../src/db/ids.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { encodeCursor, paginate } from '../src/db/pagination.js';

const ROWS = 100_020;
const DEPTH_PAGE = 5_000;
const RUNS = 200;

export async function benchPagination(): Promise<{ name: string; ms: number; ratio: number }[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-'));
  const db = createDb({ kind: 'sqlite', file: path.join(dir, 'bench.db') });
  try {
    await migrateToLatest(db);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      id: newId(),
      queue: 'bench',
      payload: '{}',
      status: 'succeeded' as const,
      max_attempts: 1,
      run_at: i,
      created_at: 0,
      updated_at: 0,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto('jobs')
        .values(rows.slice(i, i + 500))
        .execute();
    await db.schema
      .createIndex('bench_jobs_run_at_id')
      .on('jobs')
      .columns(['run_at', 'id'])
      .execute();
    await sql`analyze`.execute(db);

    // Ascending: page N starts after row (N-1)*20 - 1.
    const boundary = rows[(DEPTH_PAGE - 1) * 20 - 1];
    if (!boundary) throw new Error('not enough rows');
    const deepKey = encodeCursor(boundary.run_at, boundary.id);
    const keyset = (lastKey?: string) =>
      paginate(db.selectFrom('jobs').select(['id', 'run_at']), {
        sortColumn: 'run_at',
        idColumn: 'id',
        sortValue: (r) => r.run_at,
        id: (r) => r.id,
        direction: 'asc',
        lastKey,
      });
    const offset = () =>
      db
        .selectFrom('jobs')
        .select(['id', 'run_at'])
        .orderBy('run_at')
        .orderBy('id')
        .limit(21)
        .offset((DEPTH_PAGE - 1) * 20)
        .execute();

    const check = await keyset(deepKey);
    if (check.items[0]?.run_at !== (DEPTH_PAGE - 1) * 20)
      throw new Error('deep page starts at the wrong row');

    const page1 = await median(() => keyset());
    const deep = await median(() => keyset(deepKey));
    const off = await median(offset);
    return [
      { name: 'keyset page 1 (baseline)', ms: page1, ratio: 1 },
      { name: `keyset page ${DEPTH_PAGE}`, ms: deep, ratio: deep / page1 },
      { name: `OFFSET page ${DEPTH_PAGE} (contrast)`, ms: off, ratio: off / page1 },
    ];
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function median(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}
