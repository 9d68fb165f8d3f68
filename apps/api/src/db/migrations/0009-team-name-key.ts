import { sql, type Kysely } from 'kysely';

/**
 * Team names are searched by a part of the name without regard to case. SQLite's lower() folds
 * only ASCII (and PostgreSQL's depends on the database's locale), so the folded name is computed
 * by the application (teams/team-name.ts) and stored, as members' nicknames are (0004).
 */
function fold(name: string): string {
  return name.normalize('NFC').replace(/\s+/g, ' ').toLowerCase();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').addColumn('name_key', 'text').execute();
  const rows = await sql<{ id: string; name: string }>`select id, name from teams`.execute(db);
  for (const row of rows.rows) {
    await sql`update teams set name_key = ${fold(row.name)} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').dropColumn('name_key').execute();
}
