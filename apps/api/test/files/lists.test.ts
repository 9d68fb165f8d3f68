import type { FileItem } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionRow } from '../../src/db/rows.js';
import type { FileRow } from '../../src/files/files.repository.js';
import { addMember, createTeam } from '../helpers/factories.js';
import { localStorageRoot } from '../helpers/local-storage-root.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { filesClient, type FilesClient } from './files-api.js';
import {
  buildFilesWorld,
  createCollection,
  createStoredFile,
  filesSnapshot,
  type FilesWorld,
} from './files-world.js';

const T0 = Date.UTC(2025, 0, 1);
const MINUTE = 60_000;

describe('file lists', () => {
  let server: TestServer;
  let world: FilesWorld;
  let big: CollectionRow;
  /** 25 files in `big`, 5 by the uploader; two share each timestamp, so ids break ties. */
  let bigFiles: FileRow[];
  let owner: FilesClient;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
    world = await buildFilesWorld(server.ctx);
    owner = await filesClient(server, world.users.owner);
    big = await createCollection(server.ctx, {
      teamId: world.team.id,
      createdBy: world.users.admin.id,
      mode: 'collaborative',
    });
    bigFiles = [];
    for (let i = 0; i < 25; i++) {
      bigFiles.push(
        await createStoredFile(server.ctx, {
          collection: big,
          uploadedBy: i % 5 === 0 ? world.users.uploader.id : world.users.admin.id,
          at: T0 + Math.floor(i / 2) * MINUTE,
        }),
      );
    }
  });
  afterAll(() => server.close());

  const bigUrl = () => `/teams/${world.team.id}/collections/${big.id}/files`;
  const byKey = (a: FileRow, b: FileRow) =>
    a.updated_at - b.updated_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const ids = (files: { fileId: string }[]) => files.map((f) => f.fileId);

  it('pages a collection over more than 20 files, each file exactly once, newest first', async () => {
    const first = await owner.list(bigUrl());
    expect(first.files).toHaveLength(20);
    expect(first.pagination.lastKey).not.toBeNull();
    const all = await owner.listAll(bigUrl());
    expect(ids(all)).toEqual(
      [...bigFiles]
        .sort(byKey)
        .reverse()
        .map((f) => f.id),
    );
  });

  it('pages oldest first with sort=asc, and by smaller pages', async () => {
    const all = await owner.listAll(bigUrl(), { sort: 'asc', limit: 7 });
    expect(ids(all)).toEqual([...bigFiles].sort(byKey).map((f) => f.id));
  });

  it('filters by creator and by from/to, bounds included', async () => {
    const mine = await owner.listAll(bigUrl(), { creator: world.users.uploader.id });
    expect(ids(mine).sort()).toEqual(
      bigFiles
        .filter((f) => f.uploaded_by === world.users.uploader.id)
        .map((f) => f.id)
        .sort(),
    );
    const from = T0 + 3 * MINUTE;
    const to = T0 + 6 * MINUTE;
    const window = await owner.listAll(bigUrl(), { from, to });
    expect(ids(window).sort()).toEqual(
      bigFiles
        .filter((f) => f.updated_at >= from && f.updated_at <= to)
        .map((f) => f.id)
        .sort(),
    );
    expect(window).toHaveLength(8);
  });

  it("lists a member's uploads into a collection", async () => {
    const url = `/teams/${world.team.id}/members/${world.users.uploader.id}/collections/${big.id}/files`;
    const files = await owner.listAll(url);
    expect(files).toHaveLength(5);
    expect(files.every((f) => f.uploadedBy === world.users.uploader.id)).toBe(true);
    expect(files[0]?.uploader).toMatchObject({ userId: world.users.uploader.id });
    expect(await owner.listAll(url, { creator: world.users.admin.id })).toEqual([]);
  });

  it('refuses a bad cursor and an inverted range with 400', async () => {
    for (const query of ['lastKey=nonsense', `from=${T0 + 1}&to=${T0}`, 'creator=x']) {
      const res = await owner.get(`${bigUrl()}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ errorCode: 'invalidInput' });
    }
    const sideways = await owner.get(`${bigUrl()}?sort=sideways`);
    expect(sideways.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidSorting' });
  });

  it("lists a team's files as each role sees them", async () => {
    const url = `/teams/${world.team.id}/files`;
    const all = ids(await owner.listAll(url));
    expect(all).toHaveLength(28);
    expect(all).toContain(world.files.owned.id);
    expect(all).not.toContain(world.files.foreign.id);
    const viewer = await filesClient(server, world.users.viewer);
    expect(ids(await viewer.listAll(url)).sort()).toEqual([...all].sort());
    // An uploader: its own collection and the collaborative ones, not the owner's.
    const uploader = await filesClient(server, world.users.uploader);
    const seen = ids(await uploader.listAll(url));
    expect(seen).toHaveLength(27);
    expect(seen).not.toContain(world.files.owned.id);
    expect(seen).toContain(world.files.uploaders.id);
    expect(seen).toContain(world.files.shared.id);
    const byCreator = await uploader.listAll(url, { creator: world.users.owner.id });
    expect(byCreator).toEqual([]);
  });

  it('lists, across teams, the files of every team the caller is an active member of', async () => {
    const second = await createTeam(server.ctx, { owner: world.users.foreigner, name: 'Second' });
    const third = await createTeam(server.ctx, { owner: world.users.foreigner, name: 'Third' });
    // The viewer is an uploader in the second team and disabled in the third.
    await addMember(server.ctx, { teamId: second.id, user: world.users.viewer, role: 'uploader' });
    await addMember(server.ctx, {
      teamId: third.id,
      user: world.users.viewer,
      role: 'admin',
      status: 'disabled',
    });
    const [secondShared, secondOwned, thirdShared] = await Promise.all([
      createCollection(server.ctx, {
        teamId: second.id,
        createdBy: world.users.foreigner.id,
        mode: 'collaborative',
      }),
      createCollection(server.ctx, {
        teamId: second.id,
        createdBy: world.users.foreigner.id,
        mode: 'owned',
      }),
      createCollection(server.ctx, {
        teamId: third.id,
        createdBy: world.users.foreigner.id,
        mode: 'collaborative',
      }),
    ]);
    const later = server.ctx.clock() + MINUTE;
    const visible = await createStoredFile(server.ctx, {
      collection: secondShared,
      uploadedBy: world.users.foreigner.id,
      at: later,
    });
    const hidden = await createStoredFile(server.ctx, {
      collection: secondOwned,
      uploadedBy: world.users.foreigner.id,
      at: later,
    });
    const disabledTeams = await createStoredFile(server.ctx, {
      collection: thirdShared,
      uploadedBy: world.users.foreigner.id,
      at: later,
    });

    const viewer = await filesClient(server, world.users.viewer);
    const seen = await viewer.listAll('/files');
    const seenIds = ids(seen);
    expect(seenIds).toContain(visible.id);
    expect(seenIds).not.toContain(hidden.id);
    expect(seenIds).not.toContain(disabledTeams.id);
    expect(seenIds).not.toContain(world.files.foreign.id);
    const teamOnly = ids(await viewer.listAll(`/teams/${world.team.id}/files`));
    expect(seenIds.sort()).toEqual([...teamOnly, visible.id].sort());
    // Newest first across teams, and each file presented within its own team.
    expect(seen[0]).toMatchObject({ fileId: visible.id, teamId: second.id });
    expect(seen[0]?.uploader.nickname).not.toBeNull();

    const outsider = await filesClient(server, world.users.outsider);
    expect(await outsider.listAll('/files')).toEqual([]);
    const foreigner = await filesClient(server, world.users.foreigner);
    expect(ids(await foreigner.listAll('/files')).sort()).toEqual(
      [world.files.foreign.id, visible.id, hidden.id, disabledTeams.id].sort(),
    );
  });

  it('marks a file read when it is opened or downloaded, never when it is listed', async () => {
    const [target] = [...bigFiles].sort(byKey);
    if (!target) throw new Error('no file');
    const viewer = await filesClient(server, world.users.viewer);
    const admin = await filesClient(server, world.users.admin);
    const find = (files: FileItem[]) => files.find((f) => f.fileId === target.id);

    const before = await server.ctx.db.selectFrom('file_reads').selectAll().execute();
    await viewer.listAll(bigUrl());
    await viewer.listAll(`/teams/${world.team.id}/files`);
    await viewer.listAll('/files');
    expect(await server.ctx.db.selectFrom('file_reads').selectAll().execute()).toEqual(before);
    expect(find(await viewer.listAll(bigUrl()))?.readAt).toBeNull();

    const opened = await viewer.get(`${bigUrl()}/${target.id}`);
    expect(opened.statusCode).toBe(200);
    const readAt = opened.json<FileItem>().readAt;
    expect(readAt).not.toBeNull();
    expect(find(await viewer.listAll(bigUrl()))?.readAt).toBe(readAt);
    // Read marks are per user.
    expect(find(await admin.listAll(bigUrl()))?.readAt).toBeNull();
    const collectionRead = await server.ctx.db
      .selectFrom('collection_reads')
      .selectAll()
      .where('collection_id', '=', big.id)
      .where('user_id', '=', world.users.viewer.id)
      .executeTakeFirstOrThrow();
    expect(new Date(collectionRead.read_at).toISOString()).toBe(readAt);

    const download = await admin.get(`${bigUrl()}/${target.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(find(await admin.listAll(bigUrl()))?.readAt).not.toBeNull();

    // Opening again moves the mark (an upsert, not a second row).
    const again = await viewer.get(`${bigUrl()}/${target.id}`);
    expect(again.statusCode).toBe(200);
    const marks = await server.ctx.db
      .selectFrom('file_reads')
      .selectAll()
      .where('file_id', '=', target.id)
      .execute();
    expect(marks).toHaveLength(2);
  });

  it('changes nothing by listing', async () => {
    const before = await filesSnapshot(server.ctx, localStorageRoot(server.config));
    await owner.listAll(bigUrl());
    await owner.listAll(`/teams/${world.team.id}/files`);
    await owner.listAll('/files');
    expect(await filesSnapshot(server.ctx, localStorageRoot(server.config))).toBe(before);
  });
});
