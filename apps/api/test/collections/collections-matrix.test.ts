import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken, CALLERS } from '../members/world.js';
import { addLink, ENDPOINTS, expectedStatus } from './matrix-endpoints.js';
import { buildCollectionWorld, snapshot } from './world.js';

describe('collections: authorisation matrix', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  for (const endpoint of ENDPOINTS) {
    for (const caller of CALLERS) {
      it(`${endpoint.name} as ${caller}`, async () => {
        const world = await buildCollectionWorld(server.ctx);
        await endpoint.setup?.(server.ctx, world);
        const status = expectedStatus(endpoint, caller, world);
        const { method, url, payload } = endpoint.request(world);
        const headers =
          caller === 'anonymous'
            ? {}
            : { authorization: `Bearer ${await accessToken(server.ctx, world.users[caller])}` };
        const before = await snapshot(server.ctx);
        const res = await server.app.inject({
          method: method as 'GET',
          url: `/api${url}`,
          headers,
          ...(payload === undefined ? {} : { payload: payload as object }),
        });
        expect(res.statusCode, res.body).toBe(status);
        const after = await snapshot(server.ctx);
        if (status >= 400) {
          expect(after).toBe(before);
          expect(res.json()).toMatchObject({
            errorCode: { 401: 'authorizationRequired', 403: 'forbidden', 404: 'notFound' }[status],
          });
        } else if (method !== 'GET') expect(after).not.toBe(before);
      });
    }
  }

  it("answers 404 for another team's collection or link, a malformed id or a member not in the team", async () => {
    const world = await buildCollectionWorld(server.ctx);
    const headers = {
      authorization: `Bearer ${await accessToken(server.ctx, world.users.owner)}`,
    };
    const { team, otherTeam, collections, stranger } = world;
    const rename = [{ op: 'replace', path: '/name', value: 'Mine now' }];
    // A link of the other team's collection, and one of this team's shared collection asked for
    // through another collection of the team.
    const foreignLink = await addLink(server.ctx, collections.foreign);
    const sharedLink = await addLink(server.ctx, collections.shared);
    const foreignLinks = `/teams/${team.id}/collections/${collections.foreign.id}/links`;
    const otherTeamLinks = `/teams/${otherTeam.id}/collections/${collections.foreign.id}/links`;
    const wrongCollection = `/teams/${team.id}/collections/${collections.ownersOwned.id}/links`;
    const off = { enabled: false };
    const before = await snapshot(server.ctx);
    const calls = [
      { method: 'GET', url: `/teams/${team.id}/collections/${collections.foreign.id}` },
      {
        method: 'PATCH',
        url: `/teams/${team.id}/collections/${collections.foreign.id}`,
        payload: rename,
      },
      { method: 'GET', url: `/teams/${team.alias ?? ''}/collections/${collections.foreign.id}` },
      { method: 'GET', url: `/teams/${team.id}/collections/not-a-uuid` },
      { method: 'PATCH', url: `/teams/${team.id}/collections/not-a-uuid`, payload: rename },
      { method: 'DELETE', url: `/teams/${team.id}/collections/${collections.foreign.id}` },
      { method: 'DELETE', url: `/teams/${otherTeam.id}/collections/${collections.foreign.id}` },
      { method: 'DELETE', url: `/teams/${team.id}/collections/not-a-uuid` },
      { method: 'GET', url: `/teams/${team.id}/collections/${team.id}` },
      { method: 'GET', url: `/teams/${team.id}/members/${stranger.id}/collections` },
      { method: 'GET', url: `/teams/${otherTeam.id}/collections` },
      { method: 'GET', url: `/teams/${otherTeam.id}/shared-collections` },
      { method: 'GET', url: `/teams/${otherTeam.id}/collections/${collections.foreign.id}` },
      {
        method: 'POST',
        url: `/teams/${otherTeam.id}/collections`,
        payload: { name: 'Intruder', mode: 'owned' },
      },
      { method: 'GET', url: foreignLinks },
      { method: 'POST', url: foreignLinks, payload: { label: 'Intruder' } },
      { method: 'PATCH', url: `${foreignLinks}/${foreignLink}`, payload: off },
      { method: 'DELETE', url: `${foreignLinks}/${foreignLink}` },
      { method: 'GET', url: otherTeamLinks },
      { method: 'PATCH', url: `${otherTeamLinks}/${foreignLink}`, payload: off },
      { method: 'DELETE', url: `${otherTeamLinks}/${foreignLink}` },
      { method: 'PATCH', url: `${wrongCollection}/${sharedLink}`, payload: off },
      { method: 'DELETE', url: `${wrongCollection}/${sharedLink}` },
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
