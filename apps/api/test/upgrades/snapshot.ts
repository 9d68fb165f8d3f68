import { sql } from 'kysely';
import type { Db } from '../../src/db/create-db.js';

/** Every row of every table (Kysely's bookkeeping aside), as the database holds it. */
export interface Snapshot {
  tables: Map<string, { columns: string[]; rows: Record<string, unknown>[] }>;
}

export async function snapshot(db: Db): Promise<Snapshot> {
  const tables: Snapshot['tables'] = new Map();
  for (const table of await db.introspection.getTables()) {
    if (table.isView) continue;
    const columns = table.columns.map((c) => c.name).sort();
    const result = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table.name)}`.execute(db);
    tables.set(table.name, { columns, rows: result.rows });
  }
  return { tables };
}

/** Row counts per table. */
export function counts(snap: Snapshot): Record<string, number> {
  const entries = [...snap.tables].map(([name, t]): [string, number] => [name, t.rows.length]);
  return Object.fromEntries(entries.sort());
}

function rowText(row: Record<string, unknown>, columns: string[]): string {
  // bigint and number read back alike whichever driver produced them.
  return JSON.stringify(columns.map((c) => (typeof row[c] === 'bigint' ? Number(row[c]) : row[c])));
}

/**
 * What of `before` is no longer in `after`: tables and columns gone, and every row whose values
 * in the columns `before` had are not found as they were. Columns and tables added since are not
 * differences. Empty when every row is still there with its values.
 */
export function lostSince(before: Snapshot, after: Snapshot): string[] {
  const lost: string[] = [];
  for (const [name, was] of before.tables) {
    const now = after.tables.get(name);
    if (!now) {
      lost.push(`table ${name} is gone`);
      continue;
    }
    const dropped = was.columns.filter((c) => !now.columns.includes(c));
    for (const column of dropped) lost.push(`column ${name}.${column} is gone`);
    const kept = was.columns.filter((c) => now.columns.includes(c));
    const remaining = new Map<string, number>();
    for (const row of now.rows) {
      const text = rowText(row, kept);
      remaining.set(text, (remaining.get(text) ?? 0) + 1);
    }
    for (const row of was.rows) {
      const text = rowText(row, kept);
      const left = remaining.get(text) ?? 0;
      if (left === 0) lost.push(`${name}: row ${rowText(row, was.columns)} is not there as it was`);
      else remaining.set(text, left - 1);
    }
    if (now.rows.length !== was.rows.length) {
      lost.push(`${name}: ${was.rows.length} rows before, ${now.rows.length} after`);
    }
  }
  return lost;
}
