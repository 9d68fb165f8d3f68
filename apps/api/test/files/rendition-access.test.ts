import type { FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/users/users.repository.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { filesClient, injectPath } from './files-api.js';
import { buildFilesWorld, createStoredFile, type FilesWorld } from './files-world.js';

describe('rendition links', () => {
  let server: TestServer;
  let offset = 0;

  beforeAll(async () => {
    server = await startTestServer(
      { RATE_LIMIT_MAX: '100000', RENDITION_URL_TTL_SECONDS: '600' },
      { clock: () => Date.now() + offset },
    );
  });
  afterAll(() => server.close());

  /** The links the API gives `user` for a file of the world's shared collection. */
  async function linksFor(world: FilesWorld, user: UserRow, fileId = world.files.shared.id) {
    const client = await filesClient(server, user);
    const res = await client.get(
      `/teams/${world.team.id}/collections/${world.collections.shared.id}/files/${fileId}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json<FileItem>();
    return {
      thumbnail: injectPath(file.thumbnailUrl ?? ''),
      preview: injectPath(file.previewUrl ?? ''),
    };
  }

  const fetchImage = (path: string) => server.app.inject({ method: 'GET', url: path });

  it('work without a session for the user they were issued to', async () => {
    const world = await buildFilesWorld(server.ctx);
    const links = await linksFor(world, world.users.viewer);
    for (const path of [links.thumbnail, links.preview]) {
      const res = await fetchImage(path);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
    }
  });

  it('stop working when the member is disabled, or removed', async () => {
    const world = await buildFilesWorld(server.ctx);
    const viewer = await linksFor(world, world.users.viewer);
    const admin = await linksFor(world, world.users.admin);
    await server.ctx.db
      .updateTable('team_members')
      .set({ status: 'disabled' })
      .where('team_id', '=', world.team.id)
      .where('user_id', '=', world.users.viewer.id)
      .execute();
    await server.ctx.db
      .deleteFrom('team_members')
      .where('team_id', '=', world.team.id)
      .where('user_id', '=', world.users.admin.id)
      .execute();
    for (const path of [viewer.thumbnail, viewer.preview, admin.thumbnail]) {
      const res = await fetchImage(path);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ errorCode: 'notFound' });
    }
  });

  it("stop working when the file's collection is no longer visible to the user", async () => {
    const world = await buildFilesWorld(server.ctx);
    const links = await linksFor(world, world.users.uploader);
    expect((await fetchImage(links.thumbnail)).statusCode).toBe(200);
    await server.ctx.db
      .updateTable('collections')
      .set({ mode: 'owned' })
      .where('id', '=', world.collections.shared.id)
      .execute();
    expect((await fetchImage(links.thumbnail)).statusCode).toBe(404);
  });

  it('stop working when the file is deleted', async () => {
    const world = await buildFilesWorld(server.ctx);
    const links = await linksFor(world, world.users.owner);
    const owner = await filesClient(server, world.users.owner);
    const res = await owner.delete(
      `/teams/${world.team.id}/collections/${world.collections.shared.id}/files/${world.files.shared.id}`,
    );
    expect(res.statusCode).toBe(204);
    expect((await fetchImage(links.preview)).statusCode).toBe(404);
  });

  it('are null while a file has no renditions', async () => {
    const world = await buildFilesWorld(server.ctx);
    const plain = await createStoredFile(server.ctx, {
      collection: world.collections.shared,
      uploadedBy: world.users.admin.id,
    });
    const client = await filesClient(server, world.users.owner);
    const res = await client.get(
      `/teams/${world.team.id}/collections/${world.collections.shared.id}/files/${plain.id}`,
    );
    expect(res.json<FileItem>()).toMatchObject({ thumbnailUrl: null, previewUrl: null });
  });

  it('refuse a tampered link with invalidDownload (400)', async () => {
    const world = await buildFilesWorld(server.ctx);
    const { thumbnail } = await linksFor(world, world.users.viewer);
    const token = thumbnail.split('/').pop() ?? '';
    const [segment = '', signature = ''] = token.split('.');
    const payload = JSON.parse(Buffer.from(segment, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    // The viewer's link turned into the owner's, or the thumbnail into the preview.
    const forged = [
      { ...payload, u: world.users.owner.id },
      { ...payload, k: 'p' },
      { ...payload, e: Number(payload.e) + 3600 },
    ].map((p) => `${Buffer.from(JSON.stringify(p)).toString('base64url')}.${signature}`);
    for (const bad of [...forged, `${segment}.${signature.slice(1)}`, 'garbage', `${token}x`]) {
      const res = await fetchImage(`/api/renditions/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'invalidDownload' });
    }
  });

  it('expire: 410 expiredToken once their time has passed', async () => {
    const world = await buildFilesWorld(server.ctx);
    const { thumbnail } = await linksFor(world, world.users.viewer);
    const ok = await fetchImage(thumbnail);
    expect(ok.statusCode).toBe(200);
    const maxAge = Number(/max-age=(\d+)/.exec(String(ok.headers['cache-control']))?.[1]);
    expect(maxAge).toBeGreaterThanOrEqual(600);
    expect(maxAge).toBeLessThanOrEqual(660);
    offset += (maxAge - 2) * 1000;
    expect((await fetchImage(thumbnail)).statusCode).toBe(200);
    offset += 3000;
    const res = await fetchImage(thumbnail);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ errorCode: 'expiredToken' });
  });
});
