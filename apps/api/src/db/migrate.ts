import {
  DEFAULT_MIGRATION_TABLE,
  Migrator,
  PostgresAdapter,
  sql,
  type Kysely,
  type MigrationResultSet,
} from 'kysely';
import { ConfigError } from '../config/config.js';
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
    await refuseNewerDatabase(db);
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
        if (attempt >= 20 || err instanceof NewerDatabaseError) throw err;
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

/**
 * A database some newer Raccolta migrated: this version does not know its schema, and running on
 * it could write rows the newer code cannot read. A ConfigError, so processes print the message
 * and stop, as for a bad setting.
 */
export class NewerDatabaseError extends ConfigError {}

/** Names of the migrations the database has run, in order; none on an empty database. */
export async function executedMigrations(db: Kysely<unknown>): Promise<string[]> {
  try {
    const rows = await sql<{
      name: string;
    }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)} order by name`.execute(db);
    return rows.rows.map((row) => row.name);
  } catch {
    // No bookkeeping table yet: an empty database.
    return [];
  }
}

async function refuseNewerDatabase(db: Db): Promise<void> {
  const known = new Set(Object.keys(migrations));
  const unknown = (await executedMigrations(db as unknown as Kysely<unknown>)).filter(
    (name) => !known.has(name),
  );
  if (unknown.length === 0) return;
  const latest = Object.keys(migrations).sort().at(-1) ?? 'none';
  throw new NewerDatabaseError(
    `This database was upgraded by a newer version of Raccolta: it has run migration${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}, which this version does not know (its latest is ${latest}). ` +
      'Start the newer version again, or restore the backup taken before the upgrade (docs/operations.md). Nothing was changed.',
  );
}

/** Whether every migration this code knows has run (readiness: an older node on a newer schema). */
export async function migrationsAtHead(db: Db): Promise<boolean> {
  const known = await migratorFor(db).getMigrations();
  return known.every((migration) => migration.executedAt !== undefined);
}
