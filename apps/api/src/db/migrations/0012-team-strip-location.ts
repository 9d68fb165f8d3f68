import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Whether a team's uploads lose their GPS position before they are stored (docs/decisions.md,
 * "Files"). Off for every existing team: originals keep what they hold until an owner or admin
 * turns it on.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('teams')
    .addColumn('strip_location', col.bool, (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('teams').dropColumn('strip_location').execute();
}
