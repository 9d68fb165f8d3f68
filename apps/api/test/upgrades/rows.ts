import { sql } from 'kysely';
import type { Db } from '../../src/db/create-db.js';

/**
 * Inserts rows by naming their columns, as raw SQL: the writers of older schema points write the
 * columns their tables had then, which the app's Database type (the schema at head) does not
 * describe. Booleans are 0/1, timestamps epoch milliseconds, JSON text (db/database.ts).
 */
export async function insertRows(
  db: Db,
  table: string,
  rows: readonly Record<string, string | number | null>[],
): Promise<void> {
  for (const row of rows) {
    const columns = Object.keys(row);
    await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values (${sql.join(columns.map((c) => row[c]))})`.execute(
      db,
    );
  }
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
