import type { Kysely } from 'kysely';
import { col } from '../column-types.js';

/**
 * The storage integrity check (`integrity/verify-storage.ts`). A run keeps its place (the last
 * file checked, by id) so a check stopped by a restart goes on from there; findings stay until a
 * later run finds the file good again, or the object gone or claimed. `files.damaged_at` says
 * when a run first found the file's original damaged or missing (null while it is good), so the
 * lists show it without asking the findings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_verification_runs')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('started_at', col.timestamp, (c) => c.notNull())
    // files → orphans → done
    .addColumn('phase', 'text', (c) => c.notNull())
    // Keyset position: every file with an id up to this one has been checked in this run.
    .addColumn('last_file_id', col.id)
    .addColumn('files_checked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_read', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .addColumn('finished_at', col.timestamp)
    .execute();
  await db.schema
    .createIndex('storage_verification_runs_phase_idx')
    .on('storage_verification_runs')
    .columns(['phase', 'started_at'])
    .execute();

  await db.schema
    .createTable('storage_findings')
    // One finding per object: an original, a rendition or an orphan.
    .addColumn('key', 'text', (c) => c.primaryKey())
    // damaged | missing | orphan | rendition
    .addColumn('kind', 'text', (c) => c.notNull())
    // No foreign key: a finding outlives nothing, but must not stop a file's deletion.
    .addColumn('file_id', col.id)
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('run_id', col.id, (c) => c.notNull())
    .addColumn('found_at', col.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('storage_findings_file_idx')
    .on('storage_findings')
    .column('file_id')
    .execute();
  await db.schema.alterTable('files').addColumn('damaged_at', col.timestamp).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').dropColumn('damaged_at').execute();
  await db.schema.dropTable('storage_findings').execute();
  await db.schema.dropTable('storage_verification_runs').execute();
}
