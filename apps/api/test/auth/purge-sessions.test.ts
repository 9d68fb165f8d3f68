import { authResultResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeSessionsJob } from '../../src/auth/purge-sessions.job.js';
import { ENDED_SESSION_KEPT_MS } from '../../src/auth/sessions.js';
import { createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const DAY = 24 * 60 * 60_000;

describe('sessions.purge job', () => {
  let server: TestServer;
  let now = Date.now();

  beforeAll(async () => {
    server = await startTestServer({}, { clock: () => now });
  });
  afterAll(() => server.close());

  async function runJob() {
    const run = purgeSessionsJob.prepare({});
    const job = {
      id: 'j',
      queue: purgeSessionsJob.queue,
      attempt: 1,
      maxAttempts: 3,
      createdAt: now,
      signal: new AbortController().signal,
    };
    await run({ db: server.ctx.db, clock: () => now }, job);
  }

  it('deletes expired refresh tokens and long-ended sessions, keeping each device’s newest', async () => {
    const { db } = server.ctx;
    const user = await createUser(server.ctx, { email: 'purge@example.com' });
    const start = now;
    // A real sign-in: a refresh token and its session.
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      payload: { email: 'purge@example.com', password: TEST_PASSWORD },
      headers: {
        'user-agent': 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    authResultResponseSchema.parse(res.json());
    const signedIn = await db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(signedIn).toHaveLength(1);
    const label = signedIn[0]?.device_label ?? null;
    expect(label).toBe('Firefox on Android');

    const row = (
      id: string,
      fields: { created: number; expires: number; revoked?: number; label?: string | null },
    ) => ({
      id,
      user_id: user.id,
      user_agent: null,
      device_label: fields.label === undefined ? 'Safari on iOS' : fields.label,
      ip_hint: null,
      created_at: fields.created,
      last_used_at: fields.created,
      expires_at: fields.expires,
      revoked_at: fields.revoked ?? null,
      authenticated_at: null,
    });
    await db
      .insertInto('sessions')
      .values([
        // Two older sessions on the phone, ended long ago: the newer of them stays.
        row('old-phone-1', { created: start - 200 * DAY, expires: start - 170 * DAY }),
        row('old-phone-2', { created: start - 150 * DAY, expires: start - 120 * DAY }),
        // Signed out 40 days ago: the newest on its device, it stays; the older one goes.
        row('tablet-1', {
          created: start - 300 * DAY,
          expires: start - 270 * DAY,
          label: 'Chrome on Android',
        }),
        row('tablet-2', {
          created: start - 50 * DAY,
          expires: start + 10 * DAY,
          revoked: start - 40 * DAY,
          label: 'Chrome on Android',
        }),
        // Ended 10 days ago, with a newer one on its device: still kept, not ended long enough.
        row('recent-1', {
          created: start - 40 * DAY,
          expires: start - 10 * DAY,
          label: 'Edge on Windows',
        }),
        row('recent-2', {
          created: start - 5 * DAY,
          expires: start + 25 * DAY,
          label: 'Edge on Windows',
        }),
        // No device recorded, long ended: goes.
        row('unrecorded', { created: start - 100 * DAY, expires: start - 70 * DAY, label: null }),
      ])
      .execute();
    const tokensBefore = await db
      .selectFrom('refresh_tokens')
      .select('id')
      .where('user_id', '=', user.id)
      .execute();
    expect(tokensBefore).toHaveLength(1);

    await runJob();
    const ids = async () =>
      (
        await db
          .selectFrom('sessions')
          .select('id')
          .where('user_id', '=', user.id)
          .orderBy('id')
          .execute()
      ).map((r) => r.id);
    const signedInId = signedIn[0]?.id ?? '';
    expect(await ids()).toEqual(
      [signedInId, 'old-phone-2', 'recent-1', 'recent-2', 'tablet-2'].sort(),
    );
    // The live refresh token stays.
    expect(
      await db.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).execute(),
    ).toHaveLength(1);

    // Much later: the refresh token expired, the sign-in's session ended more than the kept time
    // ago. Each device keeps its newest session, every other row goes; a retried run changes nothing.
    now = start + 400 * DAY + ENDED_SESSION_KEPT_MS;
    await runJob();
    await runJob();
    expect(await ids()).toEqual([signedInId, 'old-phone-2', 'recent-2', 'tablet-2'].sort());
    expect(
      await db.selectFrom('refresh_tokens').select('id').where('user_id', '=', user.id).execute(),
    ).toEqual([]);
  });
});
