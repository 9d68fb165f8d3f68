import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Config } from '../../src/config/config.js';
import { createDb, type Db } from '../../src/db/create-db.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/**
 * The database the API tests run on: a fresh SQLite file by default, or a fresh PostgreSQL
 * database on the TEST_DATABASE_URL server when RACCOLTA_TEST_DB=postgres.
 */
export function testDbKind(): 'sqlite' | 'postgres' {
  if (process.env.RACCOLTA_TEST_DB === 'postgres') {
    if (!process.env.TEST_DATABASE_URL)
      throw new Error('RACCOLTA_TEST_DB=postgres needs TEST_DATABASE_URL');
    return 'postgres';
  }
  return 'sqlite';
}

export interface TestDatabase {
  config: Config['database'];
  /** Removes the database; call after every Db on it is destroyed. */
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDbKind() === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL ?? '';
    const name = `raccolta_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      config: { kind: 'postgres', url: url.toString(), poolSize: 10 },
      async drop() {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-db-'));
  return {
    config: { kind: 'sqlite', file: path.join(dir, 'test.db') },
    drop() {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

/** A migrated database and a Db on it; `close()` destroys the Db and drops the database. */
export async function openTestDb(): Promise<{
  db: Db;
  database: TestDatabase;
  close: () => Promise<void>;
}> {
  const database = await createTestDatabase();
  const db = createDb(database.config);
  await migrateToLatest(db);
  return {
    db,
    database,
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}
