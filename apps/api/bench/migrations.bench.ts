// Migrations that rewrite a whole table, timed at 1,000,000 rows on SQLite: the database is
// migrated to the step before each one, filled, and the migration alone is timed (Kysely's
// Migrator, one transaction, as at start-up). Baseline: one set-based UPDATE of the same rows in
// the same run, what rewriting that table costs at the least.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Migrator, sql, type MigrationResultSet } from 'kysely';
import { createDb, type Db } from '../src/db/create-db.js';
import { migrations } from '../src/db/migrations/index.js';

const ROWS = 1_000_000;
const NAMES = Object.keys(migrations).sort();

function migrator(db: Db): Migrator {
  return new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) } });
}

function check(result: MigrationResultSet): MigrationResultSet {
  if (result.error) throw new Error('migration failed', { cause: result.error });
  return result;
}

async function at(db: Db, name: string): Promise<void> {
  const before = NAMES[NAMES.indexOf(name) - 1];
  if (!before) throw new Error(`no step before ${name}`);
  check(await migrator(db).migrateTo(before));
}

/** Runs the next migration, which must be `name`; answers its milliseconds. */
async function timeNext(db: Db, name: string): Promise<number> {
  const t = performance.now();
  const result = check(await migrator(db).migrateUp());
  const ms = performance.now() - t;
  const ran = result.results?.map((r) => r.migrationName) ?? [];
  if (ran.join() !== name) throw new Error(`expected ${name}, ran ${ran.join()}`);
  return ms;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** A fresh SQLite file; `fn` gets a Db on it, removed afterwards. */
async function onFreshDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-'));
  const db = createDb({ kind: 'sqlite', file: path.join(dir, 'bench.db') });
  try {
    return await fn(db);
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `count` rows numbered 1…count, generated inside SQLite in one statement. */
const numbers = (count: number) =>
  sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})`;

async function insertUsers(db: Db, count: number): Promise<void> {
  await sql`${numbers(count)}
    insert into users (id, email, email_verified, username, kind, scope, locale, sign_up_method,
      password_change_required, token_version, created_at, updated_at)
    select printf('user-%07d', i), printf('user%d@example.com', i), 1, printf('user%d', i),
      'standard', 'global', 'en', 'email_password', 0, 0, i, i from n`.execute(db);
}

/** Teams with names that need Unicode folding, all owned by user-0000001. */
async function insertTeams(db: Db, count: number): Promise<void> {
  await sql`${numbers(count)}
    insert into teams (id, name, description, mode, owner_id, plan, created_at, created_by,
      updated_at, updated_by)
    select printf('team-%07d', i), printf('Squadra  Über %d', i), null, 'collaborative',
      'user-0000001', 'free', i, 'user-0000001', i, 'user-0000001' from n`.execute(db);
}

export async function benchMigrations(): Promise<{ name: string; ms: number; ratio: number }[]> {
  const rows: { name: string; ms: number; ratio: number }[] = [];
  const count = ROWS.toLocaleString('en');

  // 0004: team_members gains nickname_key, filled row by row. 1,000 teams × 1,000 members.
  await onFreshDb(async (db) => {
    await at(db, '0004-member-nickname-key');
    await db.transaction().execute(async (trx) => {
      await insertUsers(trx, 1_000);
      await insertTeams(trx, 1_000);
      await sql`${numbers(ROWS)}
        insert into team_members (team_id, user_id, role, status, type, nickname, email,
          created_at, updated_at)
        select printf('team-%07d', (i - 1) / 1000 + 1), printf('user-%07d', (i - 1) % 1000 + 1),
          'uploader', 'active', 'standard', printf(' Membro  Ü %d ', (i - 1) % 1000 + 1), null,
          i, i from n`.execute(trx);
    });
    const migration = await timeNext(db, '0004-member-nickname-key');
    const baseline = await timed(() =>
      sql`update team_members set nickname_key = lower(trim(nickname))`.execute(db),
    );
    rows.push(
      { name: `one UPDATE of ${count} members (baseline)`, ms: baseline, ratio: 1 },
      {
        name: `0004 member nickname_key, ${count} members`,
        ms: migration,
        ratio: migration / baseline,
      },
    );
  });

  // 0009, 0012, 0013 on 1,000,000 teams, one after the other as an upgrade runs them.
  await onFreshDb(async (db) => {
    await at(db, '0009-team-name-key');
    await db.transaction().execute(async (trx) => {
      await insertUsers(trx, 1);
      await insertTeams(trx, ROWS);
    });
    const nameKey = await timeNext(db, '0009-team-name-key');
    check(await migrator(db).migrateTo('0011-storage-deletions'));
    const stripLocation = await timeNext(db, '0012-team-strip-location');
    const codes = await timeNext(db, '0013-team-codes');
    const baseline = await timed(() => sql`update teams set name_key = lower(name)`.execute(db));
    rows.push(
      { name: `one UPDATE of ${count} teams (baseline)`, ms: baseline, ratio: 1 },
      { name: `0009 team name_key, ${count} teams`, ms: nameKey, ratio: nameKey / baseline },
      {
        name: `0012 team strip_location, ${count} teams`,
        ms: stripLocation,
        ratio: stripLocation / baseline,
      },
      { name: `0013 team codes, ${count} teams`, ms: codes, ratio: codes / baseline },
    );
  });
  return rows;
}
