import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localStorageRoot } from '../helpers/local-storage-root.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken, CALLERS } from '../members/world.js';
import { nextAddress } from './files-api.js';
import { expectedStatus, FILES_ENDPOINTS, type FilesRequest } from './files-matrix-endpoints.js';
import { buildFilesWorld, filesSnapshot } from './files-world.js';

describe('files: authorisation matrix', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  async function send(call: FilesRequest, authorization?: string) {
    return server.app.inject({
      method: call.method,
      url: `/api${call.url}`,
      headers: {
        ...(authorization && !call.anonymous ? { authorization } : {}),
        ...(call.contentType ? { 'content-type': call.contentType } : {}),
      },
      remoteAddress: nextAddress(),
      ...(call.payload ? { payload: call.payload } : {}),
    });
  }

  for (const endpoint of FILES_ENDPOINTS) {
    for (const caller of CALLERS) {
      it(`${endpoint.name} as ${caller}`, async () => {
        const world = await buildFilesWorld(server.ctx, {
          objects: endpoint.readsObjects ?? false,
        });
        const status = expectedStatus(endpoint, caller, world);
        const authorization =
          caller === 'anonymous'
            ? undefined
            : `Bearer ${await accessToken(server.ctx, world.users[caller])}`;
        const root = localStorageRoot(server.config);
        await endpoint.prepare?.(world, server.ctx, caller);
        const before = await filesSnapshot(server.ctx, root);
        const res = await send(endpoint.request(world, server.ctx, caller), authorization);
        expect(res.statusCode, res.body).toBe(status);
        const after = await filesSnapshot(server.ctx, root);
        if (status >= 400 || !endpoint.writes) expect(after).toBe(before);
        else expect(after).not.toBe(before);
      });
    }
  }

  it("answers 404 for another team's collection and file ids, whichever team is in the path", async () => {
    const world = await buildFilesWorld(server.ctx);
    const authorization = `Bearer ${await accessToken(server.ctx, world.users.owner)}`;
    const { team, otherTeam, collections, files } = world;
    const foreignFiles = `/teams/${team.id}/collections/${collections.foreign.id}/files`;
    const ownFiles = `/teams/${team.id}/collections/${collections.shared.id}/files`;
    const upload = (url: string): FilesRequest => {
      const body = Buffer.from(
        `--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n`,
      );
      return { method: 'POST', url, payload: body, contentType: 'multipart/form-data; boundary=b' };
    };
    const calls: FilesRequest[] = [
      upload(foreignFiles),
      { method: 'GET', url: foreignFiles },
      { method: 'GET', url: `${foreignFiles}/${files.foreign.id}` },
      { method: 'GET', url: `${foreignFiles}/${files.foreign.id}/download` },
      { method: 'DELETE', url: `${foreignFiles}/${files.foreign.id}` },
      { method: 'PUT', url: `${foreignFiles}/${files.foreign.id}/read` },
      { method: 'DELETE', url: `${foreignFiles}/${files.foreign.id}/read` },
      { method: 'PUT', url: `/teams/${team.id}/collections/${collections.foreign.id}/read` },
      { method: 'DELETE', url: `/teams/${team.id}/collections/${collections.foreign.id}/read` },
      { method: 'PUT', url: `/teams/${otherTeam.id}/collections/${collections.foreign.id}/read` },
      // A foreign file, and a file of another collection, through one of this team's collections.
      { method: 'PUT', url: `${ownFiles}/${files.foreign.id}/read` },
      { method: 'DELETE', url: `${ownFiles}/${files.owned.id}/read` },
      {
        method: 'GET',
        url: `/teams/${team.id}/members/${world.users.foreigner.id}/collections/${collections.foreign.id}/files`,
      },
      // A foreign file through one of this team's collections.
      { method: 'GET', url: `${ownFiles}/${files.foreign.id}` },
      { method: 'GET', url: `${ownFiles}/${files.foreign.id}/download` },
      { method: 'DELETE', url: `${ownFiles}/${files.foreign.id}` },
      // A file of this team through another of its collections.
      { method: 'GET', url: `${ownFiles}/${files.owned.id}` },
      { method: 'DELETE', url: `${ownFiles}/${files.owned.id}` },
      // The other team's own paths.
      upload(`/teams/${otherTeam.id}/collections/${collections.foreign.id}/files`),
      { method: 'GET', url: `/teams/${otherTeam.id}/files` },
      { method: 'GET', url: `/teams/${otherTeam.id}/collections/${collections.foreign.id}/files` },
      {
        method: 'GET',
        url: `/teams/${otherTeam.id}/collections/${collections.foreign.id}/files/${files.foreign.id}`,
      },
    ];
    const root = localStorageRoot(server.config);
    const before = await filesSnapshot(server.ctx, root);
    for (const call of calls) {
      const res = await send(call, authorization);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(res.json()).toMatchObject({ errorCode: 'notFound' });
    }
    expect(await filesSnapshot(server.ctx, root)).toBe(before);
  });

  it('answers 400 for ids that are not ids', async () => {
    const world = await buildFilesWorld(server.ctx);
    const authorization = `Bearer ${await accessToken(server.ctx, world.users.owner)}`;
    const shared = `/teams/${world.team.id}/collections/${world.collections.shared.id}`;
    const calls: FilesRequest[] = [
      { method: 'GET', url: `/teams/${world.team.id}/collections/not-an-id/files` },
      { method: 'GET', url: `${shared}/files/not-an-id` },
      { method: 'PUT', url: `${shared}/files/not-an-id/read` },
      { method: 'DELETE', url: `${shared}/files/not-an-id/read` },
      { method: 'PUT', url: `/teams/${world.team.id}/collections/not-an-id/read` },
      { method: 'DELETE', url: `/teams/${world.team.id}/collections/not-an-id/read` },
    ];
    const root = localStorageRoot(server.config);
    const before = await filesSnapshot(server.ctx, root);
    for (const call of calls) {
      const res = await send(call, authorization);
      expect(res.statusCode, `${call.method} ${call.url}`).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
    expect(await filesSnapshot(server.ctx, root)).toBe(before);
  });
});
