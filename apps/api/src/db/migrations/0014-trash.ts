import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * The team's trash. A deleted file or collection leaves its table for a row here holding it as
 * it was (`data`: the row as JSON, a collection's with its tags), while its stored objects stay
 * where they are; restoring puts the rows back, and the purge after TRASH_DAYS (or emptying the
 * trash) queues the objects in `storage_deletions`. The live tables and their queries know
 * nothing of it. A file deleted with its collection has `parent_id` = the collection's id: it is
 * listed and restored with it. A migration that changes the columns of `files` or `collections`
 * must rewrite the `data` here as well.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trash')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('parent_id', col.id)
    .addColumn('collection_id', col.id, (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('collection_name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text')
    .addColumn('deleted_by', col.id, (c) => c.notNull())
    .addColumn('deleted_at', col.timestamp, (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trash_team_listed_idx')
    .on('trash')
    .columns(['team_id', 'parent_id', 'deleted_at', 'id'])
    .execute();
  await db.schema.createIndex('trash_parent_idx').on('trash').column('parent_id').execute();
  await db.schema.createIndex('trash_deleted_idx').on('trash').column('deleted_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trash').execute();
}
