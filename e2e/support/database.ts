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

/** Runs `fn` on this worker's app database (see ageSessions). */
function withAppDatabase<T>(fn: (db: Database.Database) => T): T {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: the worker has no app');
  const db = new Database(path.join(dataDir, 'raccolta.db'));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * Makes the next run of the scheduled job `queue` (apps/api/src/jobs/worker.ts, dedupe key
 * `schedule:<queue>`) due now, instead of at the end of its interval, and answers that run's job
 * id. Where the run itself is under way, waits for the next one to be queued.
 */
export async function runScheduledJobNow(queue: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const id = withAppDatabase(
      (db) =>
        db
          .prepare(
            `update jobs set run_at = 0
               where dedupe_key = ? and status = 'pending'
             returning id`,
          )
          .get(`schedule:${queue}`) as { id: string } | undefined,
    );
    if (id) return id.id;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no pending run of ${queue}`);
}

/** The status of a job: pending, running, succeeded or failed. */
export function jobStatus(id: string): string | undefined {
  return withAppDatabase(
    (db) =>
      (db.prepare('select status from jobs where id = ?').get(id) as { status: string } | undefined)
        ?.status,
  );
}

/**
 * Moves the last digest `email` received from the team `ms` earlier (member_digests.sent_at), so
 * that a daily digest is due again without a day passing.
 */
export function backdateDigest(email: string, teamId: string, ms: number): void {
  withAppDatabase((db) => {
    const changed = db
      .prepare(
        `update member_digests set sent_at = sent_at - ?
          where team_id = ? and sent_at is not null
            and user_id = (select id from users where email = ?)`,
      )
      .run(ms, teamId, email.toLowerCase()).changes;
    if (changed === 0) throw new Error(`no digest of ${email} to backdate`);
  });
}
