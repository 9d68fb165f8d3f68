import { Migrator, type MigrationResultSet } from 'kysely';
import type { Db } from '../../src/db/create-db.js';
import { migrations } from '../../src/db/migrations/index.js';

/**
 * The migrations as the app lists them, in the order Kysely runs them (by name). Nothing here
 * assumes which one is the last: later branches add migrations, and every test migrates "to head".
 */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations).sort();

/** The migration run just before `name`; null for the first. */
export function stepBefore(name: string): string | null {
  const index = MIGRATION_NAMES.indexOf(name);
  if (index < 0) throw new Error(`No migration ${name} in migrations/index.ts`);
  return index === 0 ? null : (MIGRATION_NAMES[index - 1] ?? null);
}

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

function check(result: MigrationResultSet, what: string): MigrationResultSet {
  if (result.error) {
    throw new Error(`${what} failed`, { cause: result.error });
  }
  const failed = (result.results ?? []).filter((r) => r.status !== 'Success');
  if (failed.length) {
    throw new Error(`${what}: ${failed.map((r) => `${r.migrationName} ${r.status}`).join(', ')}`);
  }
  return result;
}

/** Runs the migrations up to and including `name`, as a database an older version left. */
export async function migrateTo(db: Db, name: string): Promise<MigrationResultSet> {
  return check(await migrator(db).migrateTo(name), `migrateTo(${name})`);
}

/** Runs the next migration only; answers its name (null when the database is at head). */
export async function migrateOneUp(db: Db): Promise<string | null> {
  const result = check(await migrator(db).migrateUp(), 'migrateUp');
  const ran = result.results ?? [];
  if (ran.length > 1) throw new Error(`migrateUp ran ${ran.length} migrations`);
  return ran[0]?.migrationName ?? null;
}

/** The migrations this database has run, in order. */
export async function executed(db: Db): Promise<string[]> {
  const all = await migrator(db).getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
