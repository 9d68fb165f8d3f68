import { sql, type Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Collection deadlines and reminders (issue #36). A collection's deadline is the instant
 * (`deadline_at`, epoch ms) and the IANA zone it was set in (`deadline_zone`), both null without
 * one; `allow_late_uploads` lets files in after it, each marked `files.late`.
 *
 * `collection_reminders` records every reminder e-mail per (collection, member, days before the
 * deadline) under a unique key, so each goes once: a row is written `pending` first, then turned
 * `queued` in the transaction that enqueues its mail job; a run that dies in between leaves a
 * `pending` row the next run finishes. `skipped`: superseded by a nearer reminder due at the same
 * time (a deadline set two days ahead gets the one-day reminder only once it is due, not both).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('collections').addColumn('deadline_at', col.timestamp).execute();
  await db.schema.alterTable('collections').addColumn('deadline_zone', 'text').execute();
  await db.schema
    .alterTable('collections')
    .addColumn('allow_late_uploads', col.bool, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('files')
    .addColumn('late', col.bool, (c) => c.notNull().defaultTo(0))
    .execute();
  // The reminder job reads only collections with a deadline still ahead.
  await sql`create index collections_deadline_idx on collections (deadline_at) where deadline_at is not null`.execute(
    db,
  );
  await db.schema
    .createTable('collection_reminders')
    .addColumn('collection_id', col.id, (c) =>
      c.notNull().references('collections.id').onDelete('cascade'),
    )
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('days_before', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('queued_at', col.timestamp)
    .addPrimaryKeyConstraint('collection_reminders_pk', ['collection_id', 'user_id', 'days_before'])
    .execute();
  await sql`create index collection_reminders_pending_idx on collection_reminders (status) where status = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('collection_reminders').execute();
  await sql`drop index collections_deadline_idx`.execute(db);
  await db.schema.alterTable('files').dropColumn('late').execute();
  await db.schema.alterTable('collections').dropColumn('allow_late_uploads').execute();
  await db.schema.alterTable('collections').dropColumn('deadline_zone').execute();
  await db.schema.alterTable('collections').dropColumn('deadline_at').execute();
}
