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
    // 45 rows over 9 distinct timestamps, so ties on the sort key are broken by the id.
    const rows = Array.from({ length: 45 }, (_, i) => {
      const id = newId();
      ids.push(id);
      return {
        id,
        queue: 'test',
        payload: '{}',
        status: 'succeeded' as const,
        max_attempts: 1,
        run_at: 1_000 + (i % 9),
        created_at: 0,
        updated_at: 0,
      };
    });
    await db.insertInto('jobs').values(rows).execute();
  });
  afterAll(() => close());

  async function all(direction: SortDirection) {
    const seen: { id: string; run_at: number }[] = [];
    let lastKey: string | undefined;
    let pages = 0;
    do {
      const page = await paginate(db.selectFrom('jobs').select(['id', 'run_at']), {
        sortColumn: 'run_at',
        idColumn: 'id',
        sortValue: (r) => r.run_at,
        id: (r) => r.id,
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
      db.selectFrom('jobs').select(['id', 'run_at']).where('run_at', '<', 1_004),
      {
        sortColumn: 'run_at',
        idColumn: 'id',
        sortValue: (r) => r.run_at,
        id: (r) => r.id,
        direction: 'asc',
      },
    );
    expect(page.items).toHaveLength(20);
    expect(page.lastKey).toBeNull();
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
