import type { Download } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDownloadJob } from '../../src/downloads/build-download.job.js';
import type { JobRun } from '../../src/jobs/types.js';
import { nextAddress } from '../files/files-api.js';
import { buildFilesWorld, createStoredFile, type FilesWorld } from '../files/files-world.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';

const run: JobRun = {
  id: 'limits',
  queue: buildDownloadJob.queue,
  attempt: 1,
  maxAttempts: 5,
  createdAt: 0,
  signal: new AbortController().signal,
};

/*
 * Collection downloads are not a disk sink: a ready archive of the same selection and contents
 * answers again, the team's archives have a budget, each member a rate, and on PostgreSQL the
 * checks hold under parallel requests.
 */
describe('download limits', () => {
  let server: TestServer;
  let clock = Date.UTC(2026, 10, 27, 9);

  beforeAll(async () => {
    server = await startTestServer(
      { RATE_LIMIT_MAX: '100000', DOWNLOAD_REQUESTS_PER_HOUR: '40' },
      { clock: () => clock },
    );
  });
  afterAll(() => server.close());

  const request = async (world: FilesWorld, body: object, as = world.users.viewer) =>
    server.app.inject({
      method: 'POST',
      url: `/api/teams/${world.team.id}/downloads`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
      payload: body,
      remoteAddress: nextAddress(),
    });
  const downloadRows = (world: FilesWorld) =>
    server.ctx.db
      .selectFrom('downloads')
      .selectAll()
      .where('team_id', '=', world.team.id)
      .execute();

  it('answers a ready archive again while its files are unchanged', async () => {
    const world = await buildFilesWorld(server.ctx);
    const body = { collectionId: world.collections.shared.id };
    const first = (await request(world, body)).json<Download>();
    await buildDownloadJob.prepare({ downloadId: first.requestId })(server.ctx, run);
    clock += 1000;
    for (let i = 0; i < 5; i++) {
      const again = await request(world, body);
      expect(again.statusCode).toBe(202);
      expect(again.json<Download>()).toMatchObject({ requestId: first.requestId, status: 'ready' });
    }
    expect(await downloadRows(world)).toHaveLength(1);
    // A file added since: the archive no longer holds the selection, a new one is prepared.
    clock += 1000;
    await createStoredFile(server.ctx, {
      collection: world.collections.shared,
      uploadedBy: world.users.admin.id,
    });
    clock += 1000;
    const fresh = (await request(world, body)).json<Download>();
    expect(fresh.requestId).not.toBe(first.requestId);
    expect(await downloadRows(world)).toHaveLength(2);
  });

  it("refuses archives past the team's budget, and counts a member's requests", async () => {
    const world = await buildFilesWorld(server.ctx);
    // The budget: three times what the team stores, at least 1 GiB; its archives hold 1 GiB now.
    await server.ctx.db
      .insertInto('downloads')
      .values({
        id: '01900000-0000-7000-8000-0000000b0d9e',
        team_id: world.team.id,
        collection_id: world.collections.shared.id,
        requested_by: world.users.admin.id,
        collection_name: 'Shared',
        prefix: 'old',
        file_ids: null,
        status: 'ready',
        total_parts: 1,
        file_count: 1,
        total_bytes: 1024 ** 3,
        error: null,
        created_at: clock - 1000,
        updated_at: clock - 1000,
        ready_at: clock - 1000,
        expires_at: clock + 3_600_000,
      })
      .execute();
    const before = (await downloadRows(world)).length;
    const refused = await request(world, { collectionId: world.collections.shared.id });
    expect(refused.json()).toMatchObject({ statusCode: 429, errorCode: 'tooManyRequests' });
    expect(await downloadRows(world)).toHaveLength(before);
    // Once that archive has expired, there is room again.
    clock += 3_600_001;
    expect((await request(world, { collectionId: world.collections.shared.id })).statusCode).toBe(
      202,
    );
  });

  it('limits the requests of one member in an hour', async () => {
    const world = await buildFilesWorld(server.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 42; i++) {
      statuses.push(
        (await request(world, { collectionId: world.collections.shared.id }, world.users.owner))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 40).every((status) => status === 202)).toBe(true);
    expect(statuses.slice(40)).toEqual([429, 429]);
  });

  it('builds one archive for parallel identical requests, and at most five at once', async () => {
    const world = await buildFilesWorld(server.ctx);
    for (let i = 0; i < 10; i++) {
      await createStoredFile(server.ctx, {
        collection: world.collections.shared,
        uploadedBy: world.users.admin.id,
        name: `p${i}-photo.txt`,
      });
    }
    const same = await Promise.all(
      Array.from({ length: 12 }, () =>
        request(world, { collectionId: world.collections.shared.id }, world.users.admin),
      ),
    );
    expect(same.map((res) => res.statusCode)).toEqual(Array(12).fill(202));
    expect(new Set(same.map((res) => res.json<Download>().requestId)).size).toBe(1);
    const distinct = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        request(
          world,
          { collectionId: world.collections.shared.id, prefix: `p${i}` },
          world.users.admin,
        ),
      ),
    );
    const inProgress = (await downloadRows(world)).filter(
      (row) => row.requested_by === world.users.admin.id && row.status === 'inProgress',
    );
    expect(inProgress).toHaveLength(5);
    // The identical request above holds one of the five.
    expect(distinct.filter((res) => res.statusCode === 202)).toHaveLength(4);
    expect(distinct.filter((res) => res.statusCode === 429)).toHaveLength(6);
  });
});
