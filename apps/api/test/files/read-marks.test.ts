import type { CollectionListResponse, FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { tusClient } from '../uploads/tus-client.js';
import { filesClient, nextAddress, type FilesClient } from './files-api.js';
import { buildFilesWorld, createStoredFile, type FilesWorld } from './files-world.js';

describe('read marks', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  async function send(client: FilesClient, method: 'PUT' | 'DELETE', url: string) {
    return server.app.inject({
      method,
      url: `/api${url}`,
      headers: client.headers,
      remoteAddress: nextAddress(),
    });
  }

  const filesOf = (w: FilesWorld) =>
    `/teams/${w.team.id}/collections/${w.collections.shared.id}/files`;
  const collectionOf = (w: FilesWorld) =>
    `/teams/${w.team.id}/collections/${w.collections.shared.id}`;

  async function readAtOf(client: FilesClient, w: FilesWorld): Promise<Map<string, string | null>> {
    const files = await client.listAll(filesOf(w));
    return new Map(files.map((f) => [f.fileId, f.readAt]));
  }

  async function collectionReadAt(client: FilesClient, w: FilesWorld): Promise<string | null> {
    const res = await client.get(`/teams/${w.team.id}/collections`);
    const list = res.json<CollectionListResponse>();
    const shown = list.collections.find((c) => c.collectionId === w.collections.shared.id);
    if (!shown) throw new Error('the shared collection is not listed');
    return shown.readAt;
  }

  it('marks one file read and unread for the caller only, idempotently', async () => {
    const w = await buildFilesWorld(server.ctx, { objects: false });
    const admin = await filesClient(server, w.users.admin);
    const viewer = await filesClient(server, w.users.viewer);
    const fileUrl = `${filesOf(w)}/${w.files.shared.id}`;

    expect((await readAtOf(admin, w)).get(w.files.shared.id)).toBeNull();
    const before = Date.now();
    expect((await send(admin, 'PUT', `${fileUrl}/read`)).statusCode).toBe(204);
    const readAt = (await readAtOf(admin, w)).get(w.files.shared.id);
    expect(Date.parse(readAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    // Someone else's marks are theirs.
    expect((await readAtOf(viewer, w)).get(w.files.shared.id)).toBeNull();
    // Marking one file read does not read the collection.
    expect(await collectionReadAt(admin, w)).toBeNull();

    for (let i = 0; i < 2; i++) {
      const res = await send(admin, 'DELETE', `${fileUrl}/read`);
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
    }
    expect((await readAtOf(admin, w)).get(w.files.shared.id)).toBeNull();
    const rows = await server.ctx.db
      .selectFrom('file_reads')
      .selectAll()
      .where('file_id', '=', w.files.shared.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('marks all files of a collection read, keeping earlier reads; unread keeps the files', async () => {
    const w = await buildFilesWorld(server.ctx, { objects: false });
    const admin = await filesClient(server, w.users.admin);
    const owner = await filesClient(server, w.users.owner);
    const more = [];
    for (let i = 0; i < 3; i++) {
      more.push(
        await createStoredFile(server.ctx, {
          collection: w.collections.shared,
          uploadedBy: w.users.uploader.id,
          objects: false,
        }),
      );
    }
    const early = 1_700_000_000_000;
    await server.ctx.db
      .insertInto('file_reads')
      .values({ file_id: w.files.shared.id, user_id: w.users.admin.id, read_at: early })
      .execute();

    expect((await send(admin, 'PUT', `${collectionOf(w)}/read`)).statusCode).toBe(204);
    const marks = await readAtOf(admin, w);
    expect(marks.size).toBe(4);
    expect(marks.get(w.files.shared.id)).toBe(new Date(early).toISOString());
    for (const file of more) expect(marks.get(file.id)).not.toBeNull();
    expect(await collectionReadAt(admin, w)).not.toBeNull();
    // Other users and other collections are untouched.
    expect([...(await readAtOf(owner, w)).values()]).toEqual([null, null, null, null]);
    const elsewhere = await server.ctx.db
      .selectFrom('file_reads')
      .select('file_id')
      .where('file_id', '=', w.files.owned.id)
      .execute();
    expect(elsewhere).toEqual([]);

    expect((await send(admin, 'DELETE', `${collectionOf(w)}/read`)).statusCode).toBe(204);
    expect(await collectionReadAt(admin, w)).toBeNull();
    expect([...(await readAtOf(admin, w)).values()].every((v) => v !== null)).toBe(true);
  });

  it('reads for the uploader what it uploads, by multipart and by tus', async () => {
    const w = await buildFilesWorld(server.ctx, { objects: false });
    const uploader = await filesClient(server, w.users.uploader);
    const admin = await filesClient(server, w.users.admin);

    const posted = await uploader.upload(w.team.id, w.collections.shared.id, {
      filename: 'minutes.txt',
      data: 'minutes',
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const file = posted.json<FileItem>();
    expect(file.readAt).toBe(file.createdAt);

    const tus = await tusClient(server, w.users.uploader);
    const { last } = await tus.upload(
      w.team.id,
      w.collections.shared.id,
      Buffer.from('resumable notes'),
      { filename: 'resumed.txt' },
    );
    expect(last.statusCode, last.body).toBe(204);

    const mine = await uploader.listAll(filesOf(w));
    const resumed = mine.find((f) => f.name === 'resumed.txt');
    expect(resumed?.readAt).toBe(resumed?.createdAt);
    expect(mine.find((f) => f.fileId === file.fileId)?.readAt).toBe(file.createdAt);
    // Not for anyone else.
    const theirs = await readAtOf(admin, w);
    expect(theirs.get(file.fileId)).toBeNull();
    expect(theirs.get(resumed?.fileId ?? '')).toBeNull();
  });

  it('keeps a collection the uploader had read read after its own upload, not one it had not', async () => {
    const w = await buildFilesWorld(server.ctx, { objects: false });
    const uploader = await filesClient(server, w.users.uploader);
    const admin = await filesClient(server, w.users.admin);
    // The uploader opens the collection (reads it); the admin never did.
    expect((await uploader.get(collectionOf(w))).statusCode).toBe(200);
    const upload = await uploader.upload(w.team.id, w.collections.shared.id, {
      filename: 'a.txt',
      data: 'a',
    });
    expect(upload.statusCode).toBe(201);
    const res = await uploader.get(`/teams/${w.team.id}/collections`);
    const shown = res
      .json<CollectionListResponse>()
      .collections.find((c) => c.collectionId === w.collections.shared.id);
    expect(shown?.readAt).toBe(shown?.updatedAt);
    expect(await collectionReadAt(admin, w)).toBeNull();
  });
});
