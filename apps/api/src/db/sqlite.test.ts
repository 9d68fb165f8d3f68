import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, resolveSqliteDriver } from './sqlite.js';
import { isUniqueViolation } from './unique-violation.js';

interface TestDb {
  items: { id: Generated<number>; name: string; note: string | null };
}

/** The driver each supported runtime gets: Node 20 has no node:sqlite, Node 24 has all of it. */
function expectedDriver(): string | undefined {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 24) return 'node';
  if (major <= 20) return 'better-sqlite3';
  return undefined; // Node 22 and 23 depend on their minor version; not tested
}

let dir: string;
let db: Kysely<TestDb>;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'raccolta-sqlite-'));
  const { database } = openSqlite(path.join(dir, 'test.db'));
  db = new Kysely<TestDb>({ dialect: new SqliteDialect({ database }) });
  await sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, note TEXT)`.execute(
    db,
  );
});

afterEach(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite driver', () => {
  it('is node:sqlite where the runtime has it, better-sqlite3 elsewhere', () => {
    const expected = expectedDriver();
    if (expected) expect(resolveSqliteDriver()).toBe(expected);
    expect(resolveSqliteDriver('auto')).toBe(resolveSqliteDriver());
    expect(resolveSqliteDriver('better-sqlite3')).toBe('better-sqlite3');
    if (resolveSqliteDriver() === 'node') expect(resolveSqliteDriver('node')).toBe('node');
    else expect(() => resolveSqliteDriver('node')).toThrow(/SQLITE_DRIVER=node/);
  });

  it('applies the pragmas', async () => {
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`PRAGMA ${name}`).execute(db)).rows[0] as object)[0] as unknown;
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(1); // NORMAL
    expect(await pragma('foreign_keys')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(5000);
  });

  it('inserts, reads back, updates and counts changes through Kysely', async () => {
    const inserted = await db
      .insertInto('items')
      .values([
        { name: 'a', note: null },
        { name: 'b', note: 'x' },
      ])
      .executeTakeFirst();
    expect(inserted.numInsertedOrUpdatedRows).toBe(2n);
    expect(inserted.insertId).toBe(2n);

    const returned = await db
      .insertInto('items')
      .values({ name: 'c', note: 'y' })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    expect(returned).toEqual({ id: 3, name: 'c' });

    const updated = await db
      .updateTable('items')
      .set({ note: 'z' })
      .where('name', 'in', ['a', 'b'])
      .executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);

    // The same query twice: the second run reuses the cached statement with new parameters.
    const byName = (name: string) =>
      db.selectFrom('items').selectAll().where('name', '=', name).executeTakeFirst();
    expect({ ...(await byName('a')) }).toEqual({ id: 1, name: 'a', note: 'z' });
    expect({ ...(await byName('c')) }).toEqual({ id: 3, name: 'c', note: 'y' });
    expect(await byName('none')).toBeUndefined();
  });

  it('streams rows', async () => {
    await db
      .insertInto('items')
      .values([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
      .execute();
    const names: string[] = [];
    for await (const row of db.selectFrom('items').select('name').orderBy('id').stream()) {
      names.push(row.name);
    }
    expect(names).toEqual(['a', 'b', 'c']);
  });

  it('reports a unique violation the way isUniqueViolation recognises', async () => {
    await db.insertInto('items').values({ name: 'a' }).execute();
    const error: unknown = await db
      .insertInto('items')
      .values({ name: 'a' })
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(Error);
    expect(isUniqueViolation(error, { name: 'items_name', sqliteColumns: 'items.name' })).toBe(
      true,
    );
    expect(isUniqueViolation(error, { name: 'items_id', sqliteColumns: 'items.id' })).toBe(false);
  });
});
