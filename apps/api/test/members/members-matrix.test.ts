import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ENDPOINTS, expectedStatus } from './matrix-endpoints.js';
import { accessToken, buildWorld, CALLERS, snapshot } from './world.js';

describe('members and invitations: authorisation matrix', () => {
  let server: TestServer;
  let address = 0;

  beforeAll(async () => {
    // The worker sends the invitation mails (console transport), so invites answer at once.
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { worker: true });
  });
  afterAll(() => server.close());

  for (const endpoint of ENDPOINTS) {
    for (const caller of CALLERS) {
      it(`${endpoint.name} as ${caller}`, async () => {
        const world = await buildWorld(server.ctx);
        const status = expectedStatus(endpoint, caller, world);
        const { user } = endpoint.target(world, caller);
        const { method, url, payload } = endpoint.request(world, user);
        const headers =
          caller === 'anonymous'
            ? {}
            : { authorization: `Bearer ${await accessToken(server.ctx, world.users[caller])}` };
        const before = await snapshot(server.ctx);
        address++;
        const res = await server.app.inject({
          method: method as 'GET',
          url: `/api${url}`,
          headers,
          remoteAddress: `10.1.${address >> 8}.${address & 255}`,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        expect(res.statusCode, res.body).toBe(status);
        const after = await snapshot(server.ctx);
        if (status >= 400) expect(after).toBe(before);
        else if (method !== 'GET') expect(after).not.toBe(before);
      });
    }
  }

  it("answers 404 for another team's member ids, whichever team is in the path", async () => {
    const world = await buildWorld(server.ctx);
    const token = await accessToken(server.ctx, world.users.owner);
    const headers = { authorization: `Bearer ${token}` };
    const before = await snapshot(server.ctx);
    const calls = [
      { method: 'GET', url: `/teams/${world.team.id}/members/${world.stranger.id}` },
      {
        method: 'PATCH',
        url: `/teams/${world.team.id}/members/${world.stranger.id}`,
        payload: [{ op: 'replace', path: '/role', value: 'viewer' }],
      },
      { method: 'DELETE', url: `/teams/${world.team.id}/members/${world.stranger.id}` },
      {
        method: 'POST',
        url: `/teams/${world.team.id}/members/${world.stranger.id}/new-password`,
        payload: {},
      },
      {
        method: 'POST',
        url: `/teams/${world.team.id}/invitations/resend`,
        payload: { userId: world.stranger.id },
      },
      { method: 'GET', url: `/teams/${world.otherTeam.id}/members` },
      { method: 'GET', url: `/teams/${world.otherTeam.id}/members/${world.stranger.id}` },
      { method: 'DELETE', url: `/teams/${world.otherTeam.id}/members/${world.stranger.id}` },
    ] as const;
    for (const call of calls) {
      const res = await server.app.inject({
        method: call.method,
        url: `/api${call.url}`,
        headers,
        ...('payload' in call ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(res.json()).toMatchObject({ errorCode: 'notFound' });
    }
    expect(await snapshot(server.ctx)).toBe(before);
  });
});
