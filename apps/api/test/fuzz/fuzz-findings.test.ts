import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { accessToken } from '../members/world.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { checksumHeader } from '../uploads/tus-client.js';

/**
 * What the OpenAPI fuzzing (openapi-fuzz.test.ts) found, one request each: the answer the API
 * gives and the document's description of it now agree.
 */

interface Document {
  info: { description: string };
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          { description: string; content?: Record<string, { schema: unknown }> }
        >;
      }
    >
  >;
}

describe('answers the OpenAPI fuzzing found undocumented', () => {
  let server: TestServer;
  let world: FilesWorld;
  let doc: Document;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '10000' });
    world = await buildFilesWorld(server.ctx, { objects: false });
    doc = (await server.app.inject('/api/openapi.json')).json<Document>();
  });
  afterAll(() => server.close());

  it('names in its description the refusals that may answer any operation', async () => {
    // A lone surrogate's bytes in a path segment of an operation without a body: no route runs.
    const broken = await server.app.inject({
      method: 'DELETE',
      url: `/api/teams/%ED%A0%80/trash`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, world.users.owner)}` },
    });
    expect(broken.statusCode, broken.body).toBe(400);
    expect(broken.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidRequest' });
    expect(doc.info.description).toContain(
      'a URL with a broken percent-encoding is 400 invalidRequest',
    );
    const long = await server.app.inject({ method: 'GET', url: `/api/teams/${'x'.repeat(101)}` });
    expect(long.statusCode, long.body).toBe(404);
    expect(long.json()).toMatchObject({ statusCode: 404, errorCode: 'notFound' });
    expect(doc.info.description).toContain('a path segment over 100 characters 404 notFound');
  });

  it('documents checksumMismatch (460) for a creation-with-upload whose bytes fail the checksum', async () => {
    const data = Buffer.from('abcdefg');
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/teams/${world.team.id}/collections/${world.collections.owned.id}/uploads`,
      headers: {
        authorization: `Bearer ${await accessToken(server.ctx, world.users.admin)}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-checksum': checksumHeader('sha1', Buffer.from('other bytes')),
        'content-type': 'application/offset+octet-stream',
      },
      payload: data,
    });
    expect(res.statusCode, res.body).toBe(460);
    expect(res.json()).toMatchObject({ statusCode: 460, errorCode: 'checksumMismatch' });
    const documented =
      doc.paths['/teams/{teamId}/collections/{collectionId}/uploads']?.post?.responses['460'];
    expect(documented?.description).toContain('checksumMismatch');
  });
});
