import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * Locks on resumable uploads shared by every API process (`UPLOAD_LOCKS=database`): one row per
 * upload being read or written by a tus request, held by that request (`holder`) until it ends or
 * its lease runs out (a process that died holding it). Another request asks the holder to let go
 * (`release_requested`), as tus does between the requests of one process.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_locks')
    .addColumn('upload_id', col.id, (c) => c.primaryKey())
    .addColumn('holder', col.id, (c) => c.notNull())
    .addColumn('expires_at', col.timestamp, (c) => c.notNull())
    .addColumn('release_requested', col.bool, (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_locks').execute();
}
