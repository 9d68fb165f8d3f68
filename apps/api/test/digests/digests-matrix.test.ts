import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken, buildWorld, CALLERS, type Caller } from '../members/world.js';

/**
 * The digest preference endpoints in the authorisation matrix. Typed by hand from issue #36:
 * every active member reads and chooses their own; a member without an e-mail address (internal
 * contributor) reads `available: false` and may not choose; anyone else gets 401 or 404.
 */
const EXPECTED: Record<Caller | 'internal', { get: number; put: number }> = {
  anonymous: { get: 401, put: 401 },
  owner: { get: 200, put: 200 },
  admin: { get: 200, put: 200 },
  uploader: { get: 200, put: 200 },
  viewer: { get: 200, put: 200 },
  disabled: { get: 404, put: 404 },
  outsider: { get: 404, put: 404 },
  foreigner: { get: 404, put: 404 },
  internal: { get: 200, put: 403 },
};

describe('digest preferences: authorisation matrix', () => {
  let server: TestServer;
  let address = 0;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  const rows = () =>
    server.ctx.db.selectFrom('member_digests').selectAll().orderBy('user_id').execute();

  for (const caller of [...CALLERS, 'internal'] as const) {
    for (const method of ['GET', 'PUT'] as const) {
      it(`${method} /teams/{teamId}/members/@me/digest as ${caller}`, async () => {
        const world = await buildWorld(server.ctx);
        const user =
          caller === 'anonymous'
            ? null
            : caller === 'internal'
              ? world.internal
              : world.users[caller];
        const before = JSON.stringify(await rows());
        address++;
        const res = await server.app.inject({
          method,
          url: `/api/teams/${world.team.id}/members/@me/digest`,
          remoteAddress: `10.7.${address >> 8}.${address & 255}`,
          headers: user ? { authorization: `Bearer ${await accessToken(server.ctx, user)}` } : {},
          ...(method === 'PUT' ? { payload: { frequency: 'instant' } } : {}),
        });
        const expected = EXPECTED[caller][method === 'GET' ? 'get' : 'put'];
        expect(res.statusCode, res.body).toBe(expected);
        const after = JSON.stringify(await rows());
        if (method === 'PUT' && expected === 200) expect(after).not.toBe(before);
        else expect(after).toBe(before);
      });
    }
  }
});
