import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createDb, type Db } from '../../src/db/create-db.js';
import { createStorage } from '../../src/storage/create-storage.js';
import type { Storage } from '../../src/storage/storage.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';
import { executed, MIGRATION_NAMES, migrateOneUp } from './migration-steps.js';
import { POINT_0002, writeRows0002, type Rows0002 } from './seed-0002-accounts-and-teams.js';
import { POINT_0008, writeRows0008, type Rows0008 } from './seed-0008-subscriptions.js';

/**
 * The schema point the upgrade fixture stops at: an installation that last ran 0008, to which
 * every later migration (0009 onwards, whatever the list holds today) is applied.
 */
export const FIXTURE_POINT = POINT_0008;

/** A fresh database (SQLite, or PostgreSQL under RACCOLTA_TEST_DB=postgres) and DATA_DIR. */
export interface UpgradeEnv {
  config: Config;
  dataDir: string;
  database: TestDatabase;
  /** A Db of its own on the database, for migrating and reading rows outside the app. */
  db: Db;
  /** The storage driver the app builds from `config` (local disk under DATA_DIR/files). */
  storage: Storage;
  close(): Promise<void>;
}

export async function openUpgradeEnv(env: Record<string, string> = {}): Promise<UpgradeEnv> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-upgrade-'));
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    LOG_LEVEL: 'silent',
    SERVE_WEB: 'false',
    STORAGE: 'local',
    RATE_LIMIT_MAX: '100000',
    ...env,
  });
  config.database = database.config;
  const db = createDb(config.database);
  return {
    config,
    dataDir,
    database,
    db,
    storage: createStorage(config, Date.now),
    async close() {
      // Kysely's destroy is idempotent: a test may have closed this Db already.
      await db.destroy();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** What the writers put in the database and storage, for the tests to look for. */
export interface FixtureRows {
  at0002?: Rows0002;
  at0008?: Rows0008;
}

/**
 * Writes the rows of the schema point the database is at, when that point has a writer
 * (seed-<point>.ts); nothing otherwise. Call once per point.
 */
export async function writeRowsAt(
  env: UpgradeEnv,
  point: string,
  rows: FixtureRows,
  now: number = Date.now(),
): Promise<void> {
  if (point === POINT_0002) rows.at0002 = await writeRows0002(env.db, now);
  if (point === POINT_0008) {
    rows.at0008 = await writeRows0008(env.db, {
      storage: env.storage,
      uploadsDir: env.config.uploadsDir,
      now,
    });
  }
}

/**
 * Brings an empty database up to `upTo` one migration at a time, writing each schema point's rows
 * as soon as the database reaches that point, so later rows sit on top of earlier ones as on a
 * real installation.
 */
export async function buildFixture(
  env: UpgradeEnv,
  upTo: string = FIXTURE_POINT,
  now: number = Date.now(),
): Promise<FixtureRows> {
  if (!MIGRATION_NAMES.includes(upTo)) throw new Error(`No migration ${upTo}`);
  if ((await executed(env.db)).length) throw new Error('buildFixture needs an empty database');
  const rows: FixtureRows = {};
  for (;;) {
    const at = await migrateOneUp(env.db);
    if (at === null) throw new Error(`Reached head before ${upTo}`);
    await writeRowsAt(env, at, rows, now);
    if (at === upTo) return rows;
  }
}
