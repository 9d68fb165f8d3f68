import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Newsletter subscriptions (double opt-in). One row per address: `pending` until the link of the
 * confirmation e-mail is used, then `confirmed`; `unsubscribed` until the purge deletes it.
 * `expires_at` is when the purge deletes the row (a pending link that was never used, an
 * unsubscribed address), null while confirmed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('terms_version', 'text', (c) => c.notNull())
    .addColumn('privacy_version', 'text', (c) => c.notNull())
    .addColumn('accepted_at', col.timestamp, (c) => c.notNull())
    .addColumn('confirm_token_hash', 'text')
    .addColumn('confirmed_at', col.timestamp)
    .addColumn('unsubscribed_at', col.timestamp)
    .addColumn('expires_at', col.timestamp)
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_email_key')
    .on('subscriptions')
    .column('email')
    .unique()
    .execute();
  // The purge, and the confirmed subscribers a newsletter goes to, in id order.
  await db.schema
    .createIndex('subscriptions_expires_idx')
    .on('subscriptions')
    .column('expires_at')
    .execute();
  await db.schema
    .createIndex('subscriptions_status_idx')
    .on('subscriptions')
    .columns(['status', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('subscriptions').execute();
}
