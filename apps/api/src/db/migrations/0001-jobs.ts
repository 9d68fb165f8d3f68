import { sql, type Kysely } from 'kysely';
import { col } from '../column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', col.id, (c) => c.primaryKey())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('payload', col.json, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', col.timestamp, (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', col.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', col.timestamp, (c) => c.notNull())
    .addColumn('updated_at', col.timestamp, (c) => c.notNull())
    .addColumn('finished_at', col.timestamp)
    .execute();
  // The worker's claim query: due jobs of a status, oldest first.
  await db.schema.createIndex('jobs_claim_idx').on('jobs').columns(['status', 'run_at']).execute();
  // At most one unfinished job per dedupe key (scheduled jobs, idempotent enqueues).
  await db.schema
    .createIndex('jobs_dedupe_idx')
    .on('jobs')
    .column('dedupe_key')
    .unique()
    .where(sql<boolean>`dedupe_key is not null and status in ('pending', 'running')`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
