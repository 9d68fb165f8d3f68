import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { createDb } from '../../src/db/create-db.js';
import { executedMigrations, migrateToLatest, NewerDatabaseError } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { startApiProcess } from '../helpers/api-process.js';
import { openTestDb } from '../helpers/test-db.js';

const FUTURE = '9999-from-a-newer-version';
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function markNewer(db: Kysely<unknown>): Promise<void> {
  await sql`insert into kysely_migration (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(
    db,
  );
}

it('refuses to migrate a database a newer version migrated, and changes nothing', async () => {
  const { db, close } = await openTestDb();
  cleanups.push(close);
  const raw = db as unknown as Kysely<unknown>;
  await markNewer(raw);
  const before = await executedMigrations(raw);

  const failure = await migrateToLatest(db).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(NewerDatabaseError);
  expect((failure as Error).message).toContain(FUTURE);
  expect((failure as Error).message).toContain(Object.keys(migrations).sort().at(-1));
  expect(await executedMigrations(raw)).toEqual(before);
});

it('migrates a database this version knows, as before', async () => {
  const { db, close } = await openTestDb();
  cleanups.push(close);
  const result = await migrateToLatest(db);
  expect(result.results).toEqual([]);
  expect(await executedMigrations(db as unknown as Kysely<unknown>)).toEqual(
    Object.keys(migrations).sort(),
  );
});

it('stops the server at start with the message, not a stack', { timeout: 90_000 }, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-newer-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATA_DIR: dataDir, APP_SECRET: 'newer-db-secret-newer-db-secret-0001' };
  const config = loadConfig({ ...env, WORKER: 'off' });
  const db = createDb(config.database);
  await migrateToLatest(db);
  await markNewer(db as unknown as Kysely<unknown>);
  await db.destroy();

  const failure = await startApiProcess({ ...env, WORKER: 'off' }).then(
    async (api) => {
      await api.stop();
      return null;
    },
    (error: unknown) => error as Error,
  );
  expect(failure?.message).toContain('the API exited at start');
  expect(failure?.message).toContain(
    `This database was upgraded by a newer version of Raccolta: it has run migration ${FUTURE}`,
  );
  expect(failure?.message).not.toMatch(/\n\s+at /);
});
