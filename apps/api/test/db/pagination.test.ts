import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/create-db.js';
import { newId } from '../../src/db/ids.js';
import { encodeCursor, paginate, type SortDirection } from '../../src/db/pagination.js';
import { AppError } from '../../src/errors/app-error.js';
import { openTestDb } from '../helpers/test-db.js';

describe('keyset pagination', () => {
  let db: Db;
  let close: () => Promise<void>;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    // 45 rows in runs of 7 equal timestamps: pages of 20 end inside a run (rows 14-20 and 35-41
    // share theirs), so the cursor must break ties by the id or a page skips or repeats rows.
    const rows = Array.from({ length: 45 }, (_, i) => {
      const id = newId();
      ids.push(id);
      return {
        id,
        queue: 'test',
        payload: '{}',
        status: 'succeeded' as const,
        max_attempts: 1,
        run_at: 1_000 + Math.floor(i / 7),
        created_at: 0,
        updated_at: 0,
      };
    });
    await db.insertInto('jobs').values(rows).execute();
  });
  afterAll(() => close());

  const keys = {
    sortColumn: 'run_at',
    idColumn: 'id',
    sortValue: (r: { id: string; run_at: number }) => r.run_at,
    id: (r: { id: string; run_at: number }) => r.id,
  };
  async function all(direction: SortDirection) {
    const seen: { id: string; run_at: number }[] = [];
    let lastKey: string | undefined;
    let pages = 0;
    do {
      const page = await paginate(db.selectFrom('jobs').select(['id', 'run_at']), {
        ...keys,
        direction,
        lastKey,
      });
      expect(page.items.length).toBeLessThanOrEqual(20);
      seen.push(...page.items);
      lastKey = page.lastKey ?? undefined;
      pages++;
    } while (lastKey);
    return { seen, pages };
  }

  it.each(['asc', 'desc'] as const)('walks every row once, in order (%s)', async (direction) => {
    const { seen, pages } = await all(direction);
    expect(pages).toBe(3);
    expect(new Set(seen.map((r) => r.id)).size).toBe(45);
    const sorted = [...seen].sort((a, b) => a.run_at - b.run_at || (a.id < b.id ? -1 : 1));
    expect(seen).toEqual(direction === 'asc' ? sorted : sorted.reverse());
  });

  it('ends with a null lastKey when the last page is exactly full', async () => {
    const page = await paginate(
      db.selectFrom('jobs').select(['id', 'run_at']).where('run_at', '<', 1_002),
      {
        sortColumn: 'run_at',
        idColumn: 'id',
        sortValue: (r) => r.run_at,
        id: (r) => r.id,
        direction: 'asc',
        limit: 14,
      },
    );
    expect(page.items).toHaveLength(14);
    expect(page.lastKey).toBeNull();
  });

  it('pages a list with its condition and a limit, the next page after the last row', async () => {
    const jobs = (queue: string, lastKey?: string) =>
      paginate(db.selectFrom('jobs').select(['id', 'run_at']).where('queue', '=', queue), {
        ...keys,
        direction: 'desc',
        limit: 7,
        lastKey,
      });
    const first = await jobs('test');
    expect(first.items).toHaveLength(7);
    const next = await jobs('test', first.lastKey ?? '');
    expect(next.items).toHaveLength(7);
    expect(next.items.map((r) => r.id)).not.toContain(first.items[6]?.id);
    expect(await jobs('no such queue')).toEqual({ items: [], lastKey: null });
    await expect(jobs('test', 'not-a-cursor')).rejects.toSatisfy(
      (e) => e instanceof AppError && e.errorCode === 'invalidInput',
    );
  });

  it('refuses a cursor that is not one with invalidInput', async () => {
    for (const lastKey of [
      'not-base64-json',
      Buffer.from('{"a":1}').toString('base64url'),
      encodeCursor(1, '').slice(0, 5),
    ]) {
      const run = paginate(db.selectFrom('jobs').select(['id', 'run_at']), {
        sortColumn: 'run_at',
        idColumn: 'id',
        sortValue: (r) => r.run_at,
        id: (r) => r.id,
        direction: 'asc',
        lastKey,
      });
      await expect(run).rejects.toSatisfy(
        (e) => e instanceof AppError && e.errorCode === 'invalidInput',
      );
    }
  });
});
