import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Stored objects whose rows are gone, waiting for `storage.delete-queued` to delete them. Filled in
 * the transaction that deletes their rows (a whole collection at a time, by one INSERT … SELECT),
 * so nothing is deleted before the rows surely are and nothing is forgotten if a process dies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_deletions')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('queued_at', col.timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_deletions').execute();
}
