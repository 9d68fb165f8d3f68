/** Helpers for the jobs and mail tests (test-only, like worker.fixture.ts). */
import pg from 'pg';
import type { Config } from '../config/config.js';

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

export async function waitUntil(
  probe: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * pg's Pool.end() resolves before its connections have said goodbye; dropping the database WITH
 * (FORCE) right then kills them mid-close and the pool throws an unhandled 'error'. Call after
 * destroying every Db on the database and before dropping it.
 */
export async function waitForDisconnect(config: Config['database']): Promise<void> {
  if (config.kind !== 'postgres') return;
  const name = new URL(config.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await waitUntil(async () => {
      const { rows } = await admin.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      return rows[0]?.n === 0;
    }, `connections to ${name} to close`);
  } finally {
    await admin.end();
  }
}
