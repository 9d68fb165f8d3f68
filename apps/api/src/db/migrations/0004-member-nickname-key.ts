import { sql, type Kysely } from 'kysely';

/**
 * Members' nicknames are unique per team and searched by prefix, both case-insensitively. SQLite's
 * lower() folds only ASCII while PostgreSQL's folds every letter, so the folded form is computed
 * by the application (members/nickname.ts) and stored, and both databases compare the same text.
 */
function fold(nickname: string): string {
  return nickname.trim().normalize('NFC').replace(/\s+/g, ' ').toLowerCase();
}

interface Row {
  team_id: string;
  user_id: string;
  nickname: string | null;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('team_members').addColumn('nickname_key', 'text').execute();

  const rows =
    await sql<Row>`select team_id, user_id, nickname from team_members where nickname is not null`.execute(
      db,
    );
  for (const row of rows.rows) {
    if (row.nickname === null) continue;
    await sql`update team_members set nickname_key = ${fold(row.nickname)} where team_id = ${row.team_id} and user_id = ${row.user_id}`.execute(
      db,
    );
  }

  // Members who rejected or left keep their row (they may be invited again) but not their name.
  await db.schema
    .createIndex('team_members_nickname_key_idx')
    .on('team_members')
    .columns(['team_id', 'nickname_key'])
    .unique()
    .where(sql<boolean>`status not in ('rejected', 'left')`)
    .execute();
  // The member list: one team's rows in (created_at, user_id) order, paged by keyset.
  await db.schema
    .createIndex('team_members_team_created_idx')
    .on('team_members')
    .columns(['team_id', 'created_at', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('team_members_team_created_idx').execute();
  await db.schema.dropIndex('team_members_nickname_key_idx').execute();
  await db.schema.alterTable('team_members').dropColumn('nickname_key').execute();
}
