import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Resumable (tus) uploads in progress. The row is the upload's owner and scope, checked on every
 * tus request, and its declared size, which counts against the team's storage limit until the
 * upload either becomes a file (same id) or expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('uploads')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('collection_id', col.id, (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('created_by', col.id, (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    // uploading → completed (a file row with the same id exists).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('expires_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('uploads_team_status_idx')
    .on('uploads')
    .columns(['team_id', 'status'])
    .execute();
  await db.schema
    .createIndex('uploads_expires_idx')
    .on('uploads')
    .columns(['expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('uploads').execute();
}
