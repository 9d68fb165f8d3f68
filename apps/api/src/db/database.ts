import type { Generated } from 'kysely';

/**
 * Column conventions, identical on SQLite and PostgreSQL (see docs/decisions.md):
 * ids are UUID v7 text, timestamps are epoch milliseconds (bigint), booleans are 0/1 integers,
 * JSON is text serialised by the repository that owns it.
 */
export interface JobsTable {
  id: string;
  queue: string;
  payload: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  max_attempts: number;
  run_at: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface Database {
  jobs: JobsTable;
}
