import { sql, type Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Sessions people can see: one row per refresh-token family (`id` = `refresh_tokens.family_id`),
 * with the device it was opened on and when it was last used. `user_agent` is cut to 255
 * characters; `device_label` ("Firefox on Android") is computed from it when the session starts;
 * `ip_hint` is at most the first two octets of an IPv4 address or the /32 of an IPv6 one, never
 * the whole address. `revoked_at` is set when the family is revoked; the access tokens of the
 * session carry its id (`sid`) and are refused from then on. Rows stay after a session ends, so a
 * later sign-in can tell whether its device was seen before (the new-device e-mail).
 *
 * Families that were live before this migration get a row without a device (`user_agent` and
 * `device_label` null: not recorded), so they are listed and can be signed out; a label of ''
 * means recorded but not recognised.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('user_id', col.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_agent', 'text')
    .addColumn('device_label', 'text')
    .addColumn('ip_hint', 'text')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('last_used_at', col.timestamp, (c) => c.notNull())
    // The expiry of the family's newest refresh token: the session is live until then.
    .addColumn('expires_at', col.timestamp, (c) => c.notNull())
    .addColumn('revoked_at', col.timestamp)
    .execute();
  await db.schema
    .createIndex('sessions_user_idx')
    .on('sessions')
    .columns(['user_id', 'last_used_at'])
    .execute();
  await sql`
    insert into sessions (id, user_id, user_agent, device_label, ip_hint, created_at, last_used_at, expires_at, revoked_at)
    select family_id, user_id, null, null, null, min(created_at), max(created_at), max(expires_at), null
    from refresh_tokens
    group by family_id, user_id
    having count(revoked_at) = 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
}
