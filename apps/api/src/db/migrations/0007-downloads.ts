import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Collection downloads. A download is planned once (which file goes into which part, under which
 * entry name) and the plan is kept, so a build that crashed and runs again writes the same parts;
 * a part's `storage_key` is set only once its zip is completely stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('downloads')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('collection_id', col.id, (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('requested_by', col.id, (c) => c.notNull())
    // The collection's name when requested: the archive's folder and file name.
    .addColumn('collection_name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text')
    .addColumn('file_ids', col.json)
    // inProgress → ready → expired, or inProgress → failed.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('total_parts', 'integer')
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('total_bytes', 'bigint', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .addColumn('ready_at', col.timestamp)
    .addColumn('expires_at', col.timestamp)
    .execute();
  await db.schema
    .createIndex('downloads_status_expires_idx')
    .on('downloads')
    .columns(['status', 'expires_at'])
    .execute();
  await db.schema
    .createIndex('downloads_requester_idx')
    .on('downloads')
    .columns(['requested_by', 'collection_id', 'status'])
    .execute();

  await db.schema
    .createTable('download_parts')
    .addColumn('download_id', col.id, (c) =>
      c.notNull().references('downloads.id').onDelete('cascade'),
    )
    .addColumn('part_number', 'integer', (c) => c.notNull())
    .addColumn('file_count', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text')
    .addColumn('size', 'bigint')
    .addColumn('ready_at', col.timestamp)
    .addPrimaryKeyConstraint('download_parts_pk', ['download_id', 'part_number'])
    .execute();

  await db.schema
    .createTable('download_entries')
    .addColumn('download_id', col.id, (c) =>
      c.notNull().references('downloads.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('part_number', 'integer', (c) => c.notNull())
    .addColumn('file_id', col.id, (c) => c.notNull())
    .addColumn('entry_name', 'text', (c) => c.notNull())
    // 1: deflated (text and other formats it pays for); 0: stored as is.
    .addColumn('compress', col.bool, (c) => c.notNull())
    .addPrimaryKeyConstraint('download_entries_pk', ['download_id', 'position'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('download_entries').execute();
  await db.schema.dropTable('download_parts').execute();
  await db.schema.dropTable('downloads').execute();
}
