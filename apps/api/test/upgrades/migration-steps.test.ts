import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/create-db.js';
import { nicknameKey } from '../../src/members/nickname.js';
import { TEAM_CODE_ALPHABET, TEAM_CODE_LENGTH } from '../../src/teams/team-code.js';
import { teamNameKey } from '../../src/teams/team-name.js';
import {
  buildFixture,
  openUpgradeEnv,
  writeRowsAt,
  type FixtureRows,
  type UpgradeEnv,
} from './fixture.js';
import { MIGRATION_NAMES, migrateOneUp, stepBefore } from './migration-steps.js';
import { POINT_0002 } from './seed-0002-accounts-and-teams.js';
import { counts, lostSince, snapshot } from './snapshot.js';

/**
 * What a migration that fills a new column for existing rows must have written, checked right
 * after it ran on a database with data. Migrations without an entry only need to keep every row.
 */
const BACKFILLS: Record<string, (db: Db) => Promise<void>> = {
  '0004-member-nickname-key': async (db) => {
    const rows = await sql<{ nickname: string | null; nickname_key: string | null }>`
      select nickname, nickname_key from team_members`.execute(db);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) {
      expect(row.nickname_key).toBe(row.nickname === null ? null : nicknameKey(row.nickname));
    }
  },
  '0009-team-name-key': async (db) => {
    const rows = await sql<{ name: string; name_key: string | null }>`
      select name, name_key from teams`.execute(db);
    expect(rows.rows.length).toBeGreaterThan(1);
    for (const row of rows.rows) expect(row.name_key).toBe(teamNameKey(row.name));
  },
  '0012-team-strip-location': async (db) => {
    const rows = await sql<{ strip_location: number }>`select strip_location from teams`.execute(
      db,
    );
    expect(rows.rows.map((r) => r.strip_location)).toEqual(rows.rows.map(() => 0));
  },
  '0013-team-codes': async (db) => {
    const rows = await sql<{ code: string | null }>`select code from teams`.execute(db);
    const aliases = await sql<{ alias: string }>`select alias from team_aliases`.execute(db);
    const codes = rows.rows.map((r) => r.code);
    const pattern = new RegExp(`^[${TEAM_CODE_ALPHABET}]{${TEAM_CODE_LENGTH}}$`);
    for (const code of codes) expect(code).toMatch(pattern);
    expect(new Set(codes).size).toBe(codes.length);
    for (const { alias } of aliases.rows) expect(codes).not.toContain(alias.toUpperCase());
  },
  '0017-session-devices': async (db) => {
    const families = await sql<{ family_id: string; user_id: string; expires_at: number | string }>`
      select family_id, user_id, max(expires_at) as expires_at from refresh_tokens
      group by family_id, user_id having count(revoked_at) = 0 order by family_id`.execute(db);
    expect(families.rows.length).toBeGreaterThan(0);
    const sessions = await sql<{
      id: string;
      user_id: string;
      expires_at: number | string;
      device_label: string | null;
      revoked_at: number | null;
    }>`select id, user_id, expires_at, device_label, revoked_at from sessions order by id`.execute(
      db,
    );
    // Every live family is listed, as a device that was not recorded.
    expect(
      sessions.rows.map((r) => [
        r.id,
        r.user_id,
        Number(r.expires_at),
        r.device_label,
        r.revoked_at,
      ]),
    ).toEqual(families.rows.map((f) => [f.family_id, f.user_id, Number(f.expires_at), null, null]));
  },
  '0019-file-received-hash': async (db) => {
    const rows = await sql<{ sha256: string; received_sha256: string | null }>`
      select sha256, received_sha256 from files`.execute(db);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) expect(row.received_sha256).toBe(row.sha256);
  },
};

describe('each migration, from the step before it', () => {
  let env: UpgradeEnv | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('applies on a database at the previous step with data present, keeping every row', async () => {
    const opened = await openUpgradeEnv();
    env = opened;
    const rows: FixtureRows = {};
    const ran: string[] = [];
    // From an empty database to head one migration at a time; each schema point that has a
    // writer gets its rows as soon as the database reaches it, so every later step has data.
    for (;;) {
      const at = ran.at(-1) ?? null;
      if (at !== null) await writeRowsAt(opened, at, rows);
      const before = await snapshot(opened.db);
      const name = await migrateOneUp(opened.db);
      if (name === null) break;
      expect(stepBefore(name), name).toBe(at);
      const after = await snapshot(opened.db);
      expect(lostSince(before, after), name).toEqual([]);
      const now = counts(after);
      for (const [table, count] of Object.entries(counts(before))) {
        expect(now[table], `${name}: ${table}`).toBe(count);
      }
      await BACKFILLS[name]?.(opened.db);
      ran.push(name);
    }
    expect(ran).toEqual(MIGRATION_NAMES);
    expect(rows.at0002).toBeDefined();
    expect(rows.at0008).toBeDefined();
    const total = counts(await snapshot(opened.db));
    expect(total.files).toBeGreaterThan(0);
    expect(total.uploads).toBeGreaterThan(0);
    expect(total.downloads).toBeGreaterThan(0);
  });

  it('has a backfill check only for migrations that exist', () => {
    for (const name of Object.keys(BACKFILLS)) expect(MIGRATION_NAMES).toContain(name);
  });

  it('notices a changed value, a deleted row and a dropped column', async () => {
    const opened = await openUpgradeEnv();
    env = opened;
    const rows = await buildFixture(opened, POINT_0002);
    const before = await snapshot(opened.db);
    expect(lostSince(before, await snapshot(opened.db))).toEqual([]);

    await sql`update teams set description = null`.execute(opened.db);
    await sql`delete from refresh_tokens`.execute(opened.db);
    await sql`alter table user_identities drop column email`.execute(opened.db);
    const lost = lostSince(before, await snapshot(opened.db));
    expect(lost).toContainEqual(expect.stringMatching(/^teams: row .*Fondo fotografico/));
    expect(lost).toContainEqual(expect.stringMatching(/^refresh_tokens: row /));
    expect(lost).toContain('refresh_tokens: 1 rows before, 0 after');
    expect(lost).toContain('column user_identities.email is gone');
    expect(lost.join('\n')).not.toMatch(/^users/m);
    expect(rows.at0002?.owner.email).toBeDefined();
  });
});
