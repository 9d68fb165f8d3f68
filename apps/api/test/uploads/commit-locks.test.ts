import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileBody } from '../files/multipart.js';
import { nextAddress } from '../files/files-api.js';
import { buildFilesWorld, type FilesWorld } from '../files/files-world.js';
import { accessToken } from '../members/world.js';
import { startUploadServer, type UploadServer } from './tus-world.js';
import { tusClient } from './tus-client.js';

/*
 * tus and multipart uploads committed into one team at once, with a team quota: every commit path
 * takes the team's row before the collection's, so none waits on another in a cycle (PostgreSQL
 * answered 40P01 "deadlock detected", a 500, when the multipart commit locked the team then the
 * collection and the tus commit the collection then, through the file's foreign key, the team).
 */
describe('concurrent commits into one team with a quota', () => {
  let server: UploadServer;
  let world: FilesWorld;

  beforeAll(async () => {
    server = await startUploadServer('local', {
      UPLOAD_TEAM_MAX_BYTES: String(1024 * 1024 * 1024),
      UPLOAD_ALLOWED_TYPES: 'application/octet-stream',
    });
    world = await buildFilesWorld(server.ctx, { objects: false });
  });
  afterAll(() => server.close());

  it('answers every upload, none 5xx, and counts every file', async () => {
    const { team } = world;
    const collection = world.collections.shared;
    const owner = world.users.owner;
    const token = await accessToken(server.ctx, owner);
    const tus = await tusClient(server, owner);
    const size = 512 * 1024;
    const countFiles = async () =>
      Number(
        (
          await server.ctx.db
            .selectFrom('files')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('collection_id', '=', collection.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await countFiles();
    const rounds = 3;
    const statuses: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const multipart = Array.from({ length: 10 }, async (_, i) => {
        const { payload, contentType } = fileBody(`m-${round}-${i}.bin`, randomBytes(size));
        const res = await server.app.inject({
          method: 'POST',
          url: `/api/teams/${team.id}/collections/${collection.id}/files`,
          headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
          payload,
          remoteAddress: nextAddress(),
        });
        return res.statusCode;
      });
      const resumable = Array.from({ length: 10 }, async (_, i) => {
        const { last } = await tus.upload(team.id, collection.id, randomBytes(size), {
          filename: `t-${round}-${i}.bin`,
        });
        return last.statusCode;
      });
      statuses.push(...(await Promise.all([...multipart, ...resumable])));
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    // Named, not counted: a failure shows which answers came instead.
    expect(statuses.filter((status) => status !== 201 && status !== 204)).toEqual([]);
    expect(await countFiles()).toBe(before + rounds * 20);
    const row = await server.ctx.db
      .selectFrom('collections')
      .select('files_count')
      .where('id', '=', collection.id)
      .executeTakeFirstOrThrow();
    expect(row.files_count).toBe(before + rounds * 20);
  }, 120_000);
});
