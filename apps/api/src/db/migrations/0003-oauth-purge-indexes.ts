import type { Kysely } from 'kysely';

/** The hourly OAuth purge deletes by expiry; without these it would scan both tables. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('oauth_transactions_expires_idx')
    .on('oauth_transactions')
    .column('expires_at')
    .execute();
  await db.schema
    .createIndex('one_time_codes_purpose_expires_idx')
    .on('one_time_codes')
    .columns(['purpose', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('one_time_codes_purpose_expires_idx').execute();
  await db.schema.dropIndex('oauth_transactions_expires_idx').execute();
}
