import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Second factors (auth/second-factor/). A TOTP secret is stored encrypted with a key derived from
 * APP_SECRET and becomes active once confirmed with a code; `last_used_step` refuses a code of a
 * time step already used. Recovery codes are stored hashed and used once. Passkeys keep the
 * credential's public key and signature counter. WebAuthn challenges and the sign-in second step
 * use one_time_codes (short TTL, single use, shared by every API process). A team can require a
 * second factor of its owners and admins.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', col.id, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', col.timestamp)
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', col.timestamp)
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('recovery_codes_user_idx')
    .on('recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('passkeys')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    // base64url, as the browser sends it
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    // base64url COSE key
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    // JSON array of transports
    .addColumn('transports', col.json)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', col.timestamp)
    .execute();
  await db.schema.createIndex('passkeys_user_idx').on('passkeys').column('user_id').execute();

  await db.schema
    .alterTable('teams')
    .addColumn('require_second_factor', col.bool, (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').dropColumn('require_second_factor').execute();
  await db.schema.dropTable('passkeys').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.dropTable('user_totp').execute();
}
