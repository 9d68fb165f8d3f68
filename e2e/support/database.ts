import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * Moves this worker's app's idea of the past: the sessions of `email` look as if they were
 * opened, and last confirmed, `ms` earlier. The app runs on its embedded SQLite database in the
 * worker's data folder (support/servers.ts); the server's own clock cannot be moved from a spec.
 */
export function ageSessions(email: string, ms: number): void {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: the worker has no app');
  const db = new Database(path.join(dataDir, 'raccolta.db'));
  try {
    const changed = db
      .prepare(
        `update sessions
           set created_at = created_at - ?,
               authenticated_at = case when authenticated_at is null then null else authenticated_at - ? end
         where user_id = (select id from users where email = ?)`,
      )
      .run(ms, ms, email.toLowerCase()).changes;
    if (changed === 0) throw new Error(`no session of ${email} to age`);
  } finally {
    db.close();
  }
}
