import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * When the session's owner last confirmed it was them (POST /users/@me/reauthenticate). Null:
 * not since the sign-in, which is then `created_at`. Changing how one signs in needs one of the
 * two within RECENT_SIGN_IN_MS (contracts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('authenticated_at', col.timestamp).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('authenticated_at').execute();
}
