import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeRateLimitsJob } from '../../src/auth/purge-rate-limits.job.js';
import { reserve } from '../../src/db/rate-limits.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('rate-limits.purge job', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('deletes counters whose window has passed and keeps the live ones', async () => {
    const { db } = server.ctx;
    const now = Date.now();
    expect(await reserve(db, 'old-window', 5, 60_000, now - 120_000)).toBe(true);
    expect(await reserve(db, 'just-passed', 5, 60_000, now - 60_000)).toBe(true);
    expect(await reserve(db, 'live', 1, 60_000, now - 1_000)).toBe(true);
    // The live counter is at its limit: a purge must not give it its attempts back.
    expect(await reserve(db, 'live', 1, 60_000, now)).toBe(false);

    const run = purgeRateLimitsJob.prepare({});
    const job = {
      id: 'j',
      queue: purgeRateLimitsJob.queue,
      attempt: 1,
      maxAttempts: 3,
      createdAt: now,
      signal: new AbortController().signal,
    };
    await run({ db, clock: () => now }, job);
    await run({ db, clock: () => now }, job); // a retried run changes nothing more

    const left = await db.selectFrom('rate_limits').select(['key', 'count']).execute();
    expect(left).toEqual([{ key: 'live', count: 1 }]);
    expect(await reserve(db, 'live', 1, 60_000, now)).toBe(false);
  });
});
