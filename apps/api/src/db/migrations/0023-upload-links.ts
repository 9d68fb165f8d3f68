import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Upload links for guests (links/, issue #36). A link belongs to a collection; its token is 256
 * random bits, stored as its SHA-256 (`token_hash`, how a guest's request finds it) and encrypted
 * under a key derived from APP_SECRET (`token_enc`, so its managers can show the URL and the QR
 * code again). `reserved_files`/`reserved_bytes` count the uploads through the link in progress
 * and committed: a creation reserves in one conditional UPDATE against `max_files`/`max_bytes`,
 * a failed or abandoned upload and a guest's own deletion give it back.
 *
 * Uploads and files through a link carry the link, the guest's id (kept by the guest's browser),
 * name and e-mail. `files.link_id` has no foreign key: a file keeps its guest's name after the
 * link is deleted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_links')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('collection_id', col.id, (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_enc', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', col.timestamp)
    .addColumn('max_files', 'bigint')
    .addColumn('max_bytes', 'bigint')
    .addColumn('accepted_types', col.json, (c) => c.notNull())
    .addColumn('require_name', col.bool, (c) => c.notNull())
    .addColumn('require_email', col.bool, (c) => c.notNull())
    .addColumn('enabled', col.bool, (c) => c.notNull())
    .addColumn('reserved_files', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('created_by', col.id, (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_links_collection_idx')
    .on('upload_links')
    .columns(['collection_id', 'created_at'])
    .execute();

  for (const table of ['uploads', 'files']) {
    await db.schema.alterTable(table).addColumn('link_id', col.id).execute();
    await db.schema.alterTable(table).addColumn('guest_id', col.id).execute();
    await db.schema.alterTable(table).addColumn('guest_name', 'text').execute();
    await db.schema.alterTable(table).addColumn('guest_email', 'text').execute();
  }
  await db.schema
    .createIndex('files_link_idx')
    .on('files')
    .columns(['link_id', 'guest_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('files_link_idx').execute();
  for (const table of ['uploads', 'files']) {
    for (const column of ['link_id', 'guest_id', 'guest_name', 'guest_email']) {
      await db.schema.alterTable(table).dropColumn(column).execute();
    }
  }
  await db.schema.dropTable('upload_links').execute();
}
