import type { FileItem, Team } from '@raccolta/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpsOf, withGps } from '../../src/files/strip-location.fixture.js';
import { readAll } from '../../src/storage/testing/helpers.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { accessToken } from '../members/world.js';
import { tusClient } from '../uploads/tus-client.js';
import { STORAGE_KINDS, startUploadServer, type UploadServer } from '../uploads/tus-world.js';
import { filesClient, nextAddress } from './files-api.js';
import { buildFilesWorld, sha256, type FilesWorld } from './files-world.js';

/**
 * A team's `stripLocation`: off, originals keep their GPS position; on, uploads (multipart and
 * tus, local disk and S3) lose it before they are stored, pixels untouched, and the row's
 * SHA-256 is that of the bytes stored.
 */
describe.each(STORAGE_KINDS)('removing the location of uploads on %s storage', (kind) => {
  let server: UploadServer;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startUploadServer(kind);
    world = await buildFilesWorld(server.ctx, { objects: false });
  });
  afterAll(() => server.close());

  async function patchTeam(user: UserRow, ops: object[]) {
    return server.app.inject({
      method: 'PATCH',
      url: `/api/teams/${world.team.id}`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, user)}` },
      remoteAddress: nextAddress(),
      payload: ops,
    });
  }

  async function storedBytes(fileId: string) {
    const row = await server.ctx.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    return { row, bytes: await readAll(await server.ctx.storage.get(row.storage_key)) };
  }

  /** Uploads `data` both ways; answers the two files' ids. */
  async function uploadBothWays(data: Buffer, name: string): Promise<string[]> {
    const collection = world.collections.shared;
    const client = await filesClient(server, world.users.uploader);
    const res = await client.upload(world.team.id, collection.id, { filename: name, data });
    expect(res.statusCode, res.body).toBe(201);
    const multipart = res.json<FileItem>();
    const tus = await tusClient(server, world.users.uploader);
    const { url, last } = await tus.upload(world.team.id, collection.id, data, {
      filename: name,
      chunk: Math.ceil(data.length / 2),
    });
    expect(last.statusCode, last.body).toBe(204);
    const tusId = url.split('/').pop() ?? '';
    const single = await client.get(
      `/teams/${world.team.id}/collections/${collection.id}/files/${multipart.fileId}`,
    );
    expect(single.json<FileItem>().sha256).toBe(multipart.sha256);
    return [multipart.fileId, tusId];
  }

  it('keeps the GPS position of originals while the setting is off (the default)', async () => {
    const team = await server.app.inject({
      method: 'GET',
      url: `/api/teams/${world.team.id}`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, world.users.viewer)}` },
      remoteAddress: nextAddress(),
    });
    expect(team.json<Team>().stripLocation).toBe(false);
    const photo = await withGps('jpeg', 64);
    for (const fileId of await uploadBothWays(photo, 'kept.jpg')) {
      const { row, bytes } = await storedBytes(fileId);
      expect(bytes).toEqual(photo);
      expect(row.sha256).toBe(sha256(photo));
      expect(await gpsOf(bytes)).toEqual({
        latitudeRef: 'N',
        longitudeRef: 'E',
        latitude: [45, 28, 12.34],
      });
    }
  });

  it('lets owners and admins switch it, refuses others and malformed values, changing nothing', async () => {
    const forbidden = await patchTeam(world.users.uploader, [
      { op: 'replace', path: '/stripLocation', value: true },
    ]);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toMatchObject({ errorCode: 'forbidden' });
    const viewer = await patchTeam(world.users.viewer, [
      { op: 'replace', path: '/stripLocation', value: true },
    ]);
    expect(viewer.statusCode).toBe(403);
    for (const value of ['yes', 1, null]) {
      const bad = await patchTeam(world.users.owner, [
        { op: 'replace', path: '/stripLocation', value },
      ]);
      expect(bad.statusCode, JSON.stringify(value)).toBe(400);
      expect(bad.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
    const remove = await patchTeam(world.users.owner, [{ op: 'remove', path: '/stripLocation' }]);
    expect(remove.statusCode).toBe(400);
    const row = await server.ctx.db
      .selectFrom('teams')
      .select('strip_location')
      .where('id', '=', world.team.id)
      .executeTakeFirstOrThrow();
    expect(row.strip_location).toBe(0);

    const byAdmin = await patchTeam(world.users.admin, [
      { op: 'test', path: '/stripLocation', value: false },
      { op: 'replace', path: '/stripLocation', value: true },
    ]);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json<Team>().stripLocation).toBe(true);
    const byOwner = await patchTeam(world.users.owner, [
      { op: 'replace', path: '/stripLocation', value: false },
    ]);
    expect(byOwner.json<Team>().stripLocation).toBe(false);
    const on = await patchTeam(world.users.owner, [
      { op: 'replace', path: '/stripLocation', value: true },
    ]);
    expect(on.json<Team>().stripLocation).toBe(true);
  });

  it('removes the GPS position of JPEG uploads while on, without re-encoding a pixel', async () => {
    const photo = await withGps('jpeg', 64);
    const pixels = await sharp(photo).raw().toBuffer();
    for (const fileId of await uploadBothWays(photo, 'stripped.jpg')) {
      const { row, bytes } = await storedBytes(fileId);
      expect(await gpsOf(bytes)).toBeNull();
      expect(bytes.length).toBe(photo.length);
      expect(row.size).toBe(photo.length);
      expect(row.sha256).toBe(sha256(bytes));
      expect(row.sha256).not.toBe(sha256(photo));
      expect(await sharp(bytes).raw().toBuffer()).toEqual(pixels);
      // The rest of the EXIF stays.
      expect((await sharp(bytes).metadata()).exif?.toString('latin1')).toContain('Test camera');
    }
  });

  it('removes it from PNG, WebP and HEIF too, and leaves images without one as they came', async () => {
    for (const format of ['png', 'webp', 'heif'] as const) {
      const image = await withGps(format);
      const [fileId] = await uploadBothWays(image, `photo.${format}`);
      const { row, bytes } = await storedBytes(fileId ?? '');
      expect(await gpsOf(bytes), format).toBeNull();
      expect(row.sha256).toBe(sha256(bytes));
    }
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#456' } })
      .jpeg()
      .toBuffer();
    for (const fileId of await uploadBothWays(plain, 'plain.jpg')) {
      const { row, bytes } = await storedBytes(fileId);
      expect(bytes).toEqual(plain);
      expect(row.sha256).toBe(sha256(plain));
    }
  });
});
