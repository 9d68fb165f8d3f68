import { Migrator, PostgresAdapter, sql, type MigrationResultSet } from 'kysely';
import type { Db } from './create-db.js';
import { migrations } from './migrations/index.js';

/** The PostgreSQL advisory lock every process takes to migrate: one at a time. */
const MIGRATION_LOCK = 7_236_101;

function migratorFor(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

/**
 * Brings the schema to the latest migration. Processes started together on an empty PostgreSQL
 * database (several API nodes and workers) would each create Kysely's own bookkeeping tables at
 * once, and all but one fail; they queue on an advisory lock instead, held on a connection of
 * its own, and each after the first finds nothing left to do. On SQLite (one node, but an API and
 * a worker process may start together) Kysely's lock is a no-op: a migration that lost the race
 * rolls back whole (SQLite's DDL is transactional) and is tried again once the other has run.
 */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const run = async () => {
    const result = await migratorFor(db).migrateToLatest();
    if (result.error) {
      throw result.error instanceof Error
        ? result.error
        : new Error('Migration failed', { cause: result.error });
    }
    return result;
  };
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (err) {
        if (attempt >= 20) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      return await run();
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
}

/** Whether every migration this code knows has run (readiness: an older node on a newer schema). */
export async function migrationsAtHead(db: Db): Promise<boolean> {
  const known = await migratorFor(db).getMigrations();
  return known.every((migration) => migration.executedAt !== undefined);
}
