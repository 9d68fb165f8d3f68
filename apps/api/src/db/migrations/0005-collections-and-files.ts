import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Collections, their tags, files and per-user read marks. Every paged list has an index on
 * (scope columns…, updated_at, id), so any page is one index range scan (docs/decisions.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('files_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('created_by', col.id, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .addColumn('updated_by', col.id, (c) => c.notNull())
    .execute();
  for (const [name, columns] of [
    ['collections_team_updated_idx', ['team_id', 'updated_at', 'id']],
    ['collections_team_creator_updated_idx', ['team_id', 'created_by', 'updated_at', 'id']],
    ['collections_team_mode_updated_idx', ['team_id', 'mode', 'updated_at', 'id']],
    // GET /collections: every collection of the caller's teams, newest first.
    ['collections_updated_idx', ['updated_at', 'id']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('collections')
      .columns([...columns])
      .execute();
  }

  // A tag row carries its collection's updated_at, so "collections tagged with X" is paged from
  // this table's own index instead of filtering the team's whole list.
  await db.schema
    .createTable('collection_tags')
    .addColumn('collection_id', col.id, (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('user_id', col.id, (c) => c.notNull())
    .addColumn('team_id', col.id, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    // The tags' order as they were set, which lists show.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_tags_pk', ['collection_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('collection_tags_team_user_updated_idx')
    .on('collection_tags')
    .columns(['team_id', 'user_id', 'updated_at', 'collection_id'])
    .execute();

  await db.schema
    .createTable('files')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('collection_id', col.id, (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('uploaded_by', col.id, (c) => c.notNull())
    .addColumn('rendition_status', 'text', (c) => c.notNull())
    .addColumn('thumbnail_key', 'text')
    .addColumn('preview_key', 'text')
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .execute();
  for (const [name, columns] of [
    ['files_collection_updated_idx', ['collection_id', 'updated_at', 'id']],
    ['files_collection_uploader_updated_idx', ['collection_id', 'uploaded_by', 'updated_at', 'id']],
    ['files_team_updated_idx', ['team_id', 'updated_at', 'id']],
    ['files_team_uploader_updated_idx', ['team_id', 'uploaded_by', 'updated_at', 'id']],
    ['files_updated_idx', ['updated_at', 'id']],
  ] as const) {
    await db.schema
      .createIndex(name)
      .on('files')
      .columns([...columns])
      .execute();
  }

  await db.schema
    .createTable('file_reads')
    .addColumn('file_id', col.id, (c) => c.notNull().references('files.id').onDelete('cascade'))
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', col.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('file_reads_pk', ['file_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('collection_reads')
    .addColumn('collection_id', col.id, (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('read_at', col.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('collection_reads_pk', ['collection_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['collection_reads', 'file_reads', 'files', 'collection_tags', 'collections'])
    await db.schema.dropTable(table).execute();
}
