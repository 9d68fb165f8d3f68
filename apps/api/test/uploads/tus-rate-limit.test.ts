import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';

describe('rate limits on uploads', () => {
  let server: TestServer;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '3' });
    world = await buildFilesWorld(server.ctx, { objects: false });
  });
  afterAll(() => server.close());

  it('lets a contributor send many files where clicks would be limited', async () => {
    const headers = {
      authorization: `Bearer ${await accessToken(server.ctx, world.users.uploader)}`,
      'tus-resumable': '1.0.0',
    };
    const collection = world.collections.uploaders;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await server.app.inject({
        method: 'POST',
        url: `/api/teams/${collection.team_id}/collections/${collection.id}/uploads`,
        headers: {
          ...headers,
          'upload-length': '1',
          'content-type': 'application/offset+octet-stream',
        },
        payload: Buffer.from('x'),
        remoteAddress: '10.77.0.1',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.every((s) => s === 201)).toBe(true);
    const other = [];
    for (let i = 0; i < 5; i++) {
      const res = await server.app.inject({
        method: 'GET',
        url: `/api/teams/${collection.team_id}/collections/${collection.id}/files`,
        headers,
        remoteAddress: '10.77.0.2',
      });
      other.push(res.statusCode);
    }
    expect(other).toContain(429);
  });
});
