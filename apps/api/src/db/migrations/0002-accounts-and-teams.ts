import { sql, type Kysely } from 'kysely';
import { col } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('email', 'text')
    .addColumn('email_verified', col.bool, (c) => c.notNull().defaultTo(0))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('team_id', col.id)
    .addColumn('nickname', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('password_change_required', col.bool, (c) => c.notNull().defaultTo(0))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('sign_up_method', 'text', (c) => c.notNull())
    .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('users_email_idx')
    .on('users')
    .column('email')
    .unique()
    .where(sql.ref('email'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('users_standard_username_idx')
    .on('users')
    .column('username')
    .unique()
    .where(sql.ref('team_id'), 'is', null)
    .execute();
  await db.schema
    .createIndex('users_internal_username_idx')
    .on('users')
    .columns(['team_id', 'username'])
    .unique()
    .where(sql.ref('team_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_identities_pk', ['provider', 'subject'])
    .execute();
  await db.schema
    .createIndex('user_identities_user_idx')
    .on('user_identities')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('family_id', col.id, (c) => c.notNull())
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('identity_provider', col.bool, (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', col.timestamp, (c) => c.notNull())
    .addColumn('used_at', col.timestamp)
    .addColumn('revoked_at', col.timestamp)
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('refresh_tokens_family_idx')
    .on('refresh_tokens')
    .column('family_id')
    .execute();
  await db.schema
    .createIndex('refresh_tokens_user_idx')
    .on('refresh_tokens')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('data', col.json)
    .addColumn('expires_at', col.timestamp, (c) => c.notNull())
    .addColumn('used_at', col.timestamp)
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('one_time_codes_user_idx')
    .on('one_time_codes')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('reset_at', col.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_transactions')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('client_redirect_uri', 'text', (c) => c.notNull())
    .addColumn('client_state', 'text', (c) => c.notNull())
    .addColumn('client_code_challenge', 'text', (c) => c.notNull())
    .addColumn('provider_state', 'text', (c) => c.notNull().unique())
    .addColumn('provider_nonce', 'text', (c) => c.notNull())
    .addColumn('provider_code_verifier', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('expires_at', col.timestamp, (c) => c.notNull())
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('owner_id', col.id, (c) => c.notNull().references('users.id'))
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('star_alias', 'text')
    .addColumn('logo_url', 'text')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('created_by', col.id, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .addColumn('updated_by', col.id, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('team_aliases')
    .addColumn('alias', 'text', (c) => c.primaryKey())
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('created_by', col.id, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('team_aliases_team_idx')
    .on('team_aliases')
    .columns(['team_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', col.id, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('nickname', 'text')
    .addColumn('email', 'text')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('created_by', col.id)
    .addColumn('joined_at', col.timestamp)
    .addColumn('invite_expires_at', col.timestamp)
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('team_members_user_idx')
    .on('team_members')
    .columns(['user_id', 'team_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'team_members',
    'team_aliases',
    'teams',
    'oauth_transactions',
    'rate_limits',
    'one_time_codes',
    'refresh_tokens',
    'user_identities',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
