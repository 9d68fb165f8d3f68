import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Every team gets a short code (teams/team-code.ts) for internal contributors to type at sign-in
 * instead of the 36-character id. Written out here, not imported, so the migration stays as it
 * shipped whatever the application's generator becomes. A code never equals an alias (lowercased),
 * so a reference means one team.
 */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 7;

function code(): string {
  let value = '';
  for (let i = 0; i < LENGTH; i++) value += ALPHABET.charAt(randomInt(ALPHABET.length));
  return value;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('code', 'text').execute();
  const aliases = await sql<{ alias: string }>`select alias from team_aliases`.execute(db);
  const taken = new Set(aliases.rows.map((row) => row.alias.toUpperCase()));
  const teams = await sql<{ id: string }>`select id from teams order by id`.execute(db);
  for (const team of teams.rows) {
    let value = code();
    while (taken.has(value)) value = code();
    taken.add(value);
    await sql`update teams set code = ${value} where id = ${team.id}`.execute(db);
  }
  await db.schema.createIndex('teams_code_idx').on('teams').column('code').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('teams_code_idx').execute();
  await db.schema.alterTable('teams').dropColumn('code').execute();
}
