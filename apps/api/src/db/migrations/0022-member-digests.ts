import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Digests of what arrived (digests/): per member and team, the frequency they chose (null: their
 * role's default, contracts' defaultDigestFrequency) and the cursor of what they were already
 * told, the (created_at, id) of the last file a digest covered. `sent_at` is when the last digest
 * was queued, for the batching windows. The cursor and `sent_at` move in the transaction that
 * queues the `mail.send` job, so a digest is reported once. The index on files finds a team's
 * files after a cursor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('member_digests')
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('frequency', 'text')
    .addColumn('cursor_at', col.timestamp)
    .addColumn('cursor_id', col.id)
    .addColumn('sent_at', col.timestamp)
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('member_digests_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('files_team_created_idx')
    .on('files')
    .columns(['team_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('files_team_created_idx').execute();
  await db.schema.dropTable('member_digests').execute();
}
