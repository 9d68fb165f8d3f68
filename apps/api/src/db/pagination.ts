import { PAGE_SIZE } from '@raccolta/contracts';
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import { AppError } from '../errors/app-error.js';

export type SortDirection = 'asc' | 'desc';

/**
 * Every list sorts on an epoch-ms timestamp (a bigint column) and breaks ties by a UUID id, so a
 * cursor of any other shape is refused here, not by the database (PostgreSQL would fail on it).
 */
const cursorSchema = z.tuple([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.uuid()]);
type Cursor = z.infer<typeof cursorSchema>;

/** The opaque `lastKey`: the last row's (sort key, id), so the next page starts strictly after it. */
export function encodeCursor(sortValue: number, id: string): string {
  return Buffer.from(JSON.stringify([sortValue, id])).toString('base64url');
}

export function decodeCursor(lastKey: string): Cursor {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(lastKey, 'base64url').toString('utf8')));
  } catch (cause) {
    throw new AppError('invalidInput', { message: 'lastKey is not a valid cursor', cause });
  }
}

export interface PageOptions<O> {
  /** Qualified column names, e.g. `teams.created_at`; the pair must be unique and indexed. */
  sortColumn: string;
  idColumn: string;
  sortValue: (row: O) => number;
  id: (row: O) => string;
  direction: SortDirection;
  limit?: number;
  lastKey?: string | undefined;
}

export interface Page<O> {
  items: O[];
  lastKey: string | null;
}

/** The page size asked for, within 1…PAGE_SIZE. */
function pageLimit(limit: number | undefined): number {
  return Math.min(Math.max(limit ?? PAGE_SIZE, 1), PAGE_SIZE);
}

/** `limit + 1` rows read: the page, and whether another follows (then its cursor). */
function pageOf<O>(
  rows: O[],
  limit: number,
  keys: Pick<PageOptions<O>, 'sortValue' | 'id'>,
): Page<O> {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return {
    items,
    lastKey: rows.length > limit && last ? encodeCursor(keys.sortValue(last), keys.id(last)) : null,
  };
}

/**
 * Keyset pagination: a row-value comparison on (sort key, id) instead of OFFSET, so any page
 * costs one index range scan of `limit + 1` rows, however deep it is.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  opts: PageOptions<O>,
): Promise<Page<O>> {
  const limit = pageLimit(opts.limit);
  let query = qb;
  if (opts.lastKey) {
    const [value, id] = decodeCursor(opts.lastKey);
    const op = sql.raw(opts.direction === 'desc' ? '<' : '>');
    query = query.where(
      sql<SqlBool>`(${sql.ref(opts.sortColumn)}, ${sql.ref(opts.idColumn)}) ${op} (${value}, ${id})`,
    );
  }
  const rows = await query
    .orderBy(sql.ref(opts.sortColumn), opts.direction)
    .orderBy(sql.ref(opts.idColumn), opts.direction)
    .limit(limit + 1)
    .execute();
  return pageOf(rows, limit, opts);
}
