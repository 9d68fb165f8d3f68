import { collectionSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';
import { snapshot } from './world.js';

describe('collections: create', () => {
  let server: TestServer;
  const clock = { now: Date.UTC(2026, 2, 5, 9, 30) };
  let owner: UserRow;
  let uploader: UserRow;
  let viewer: UserRow;
  let team: { id: string; alias: string | null };

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { clock: () => clock.now });
    const user = (name: string) =>
      createUser(server.ctx, { email: `${name}@example.com`, nickname: name, password: null });
    owner = await user('Olga');
    uploader = await user('Ugo');
    viewer = await user('Vera');
    team = await createTeam(server.ctx, { owner, name: 'Archive', alias: 'archive' });
    await addMember(server.ctx, { teamId: team.id, user: uploader, role: 'uploader' });
    await addMember(server.ctx, { teamId: team.id, user: viewer, role: 'viewer' });
  });
  afterAll(() => server.close());

  const post = async (payload: unknown, as: UserRow = owner, teamRef = team.id) =>
    server.app.inject({
      method: 'POST',
      url: `/api/teams/${teamRef}/collections`,
      payload: payload as object,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
    });
  const setTeamMode = (mode: 'collaborative' | 'controlled') =>
    server.ctx.db.updateTable('teams').set({ mode }).where('id', '=', team.id).execute();

  it('creates a draft collection owned by the caller and answers it', async () => {
    clock.now += 1000;
    const res = await post({
      name: '  Summer 2026 ',
      description: ' Beach photos ',
      mode: 'collaborative',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = collectionSchema.parse(res.json());
    const at = new Date(clock.now).toISOString();
    expect(body).toEqual({
      teamId: team.id,
      collectionId: body.collectionId,
      name: 'Summer 2026',
      description: 'Beach photos',
      mode: 'collaborative',
      status: 'draft',
      tags: [],
      taggedMembers: [],
      createdBy: owner.id,
      owner: { userId: owner.id, nickname: 'Olga', avatarUrl: null },
      createdAt: at,
      updatedAt: at,
      updatedBy: owner.id,
      readAt: null,
      filesCount: 0,
      deadline: null,
      allowLateUploads: false,
    });
    const row = await server.ctx.db
      .selectFrom('collections')
      .selectAll()
      .where('id', '=', body.collectionId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: body.collectionId,
      team_id: team.id,
      name: 'Summer 2026',
      description: 'Beach photos',
      mode: 'collaborative',
      status: 'draft',
      files_count: 0,
      created_at: clock.now,
      created_by: owner.id,
      updated_at: clock.now,
      updated_by: owner.id,
      deadline_at: null,
      deadline_zone: null,
      allow_late_uploads: 0,
    });
  });

  it('takes the team alias; a blank description is none', async () => {
    const res = await post(
      { name: 'By alias', description: '   ', mode: 'owned' },
      owner,
      'archive',
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ teamId: team.id, description: null, mode: 'owned' });
  });

  it('lets an uploader create owned collections in a collaborative team only', async () => {
    const res = await post({ name: 'Field notes', mode: 'owned' }, uploader);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ createdBy: uploader.id, mode: 'owned' });

    const shared = await post({ name: 'Shared notes', mode: 'collaborative' }, uploader);
    expect(shared.json()).toMatchObject({ statusCode: 403, errorCode: 'forbidden' });
    await setTeamMode('controlled');
    try {
      const controlled = await post({ name: 'Field notes 2', mode: 'owned' }, uploader);
      expect(controlled.json()).toMatchObject({ statusCode: 403, errorCode: 'forbidden' });
      const managed = await post({ name: 'Managed', mode: 'collaborative' });
      expect(managed.statusCode).toBe(201);
    } finally {
      await setTeamMode('collaborative');
    }
    const viewers = await post({ name: 'Viewer notes', mode: 'owned' }, viewer);
    expect(viewers.json()).toMatchObject({ statusCode: 403, errorCode: 'forbidden' });
    const uploaderRows = await server.ctx.db
      .selectFrom('collections')
      .select('name')
      .where('created_by', 'in', [uploader.id, viewer.id])
      .execute();
    expect(uploaderRows.map((r) => r.name)).toEqual(['Field notes']);
  });

  it.each([
    ['no name', { mode: 'owned' }, '/name', 'collectionNameRequired'],
    ['a blank name', { name: '   ', mode: 'owned' }, '/name', 'collectionNameRequired'],
    ['a short name', { name: ' a ', mode: 'owned' }, '/name', 'collectionNameShort'],
    ['a long name', { name: 'n'.repeat(51), mode: 'owned' }, '/name', 'collectionNameLong'],
    [
      'a long description',
      { name: 'Ok', description: 'd'.repeat(251), mode: 'owned' },
      '/description',
      'collectionDescriptionLong',
    ],
    ['no mode', { name: 'Ok' }, '/mode', 'collectionModeRequired'],
    ['an unknown mode', { name: 'Ok', mode: 'private' }, '/mode', 'collectionModeRequired'],
    ['a name that is not text', { name: 42, mode: 'owned' }, '/name', 'collectionNameRequired'],
  ])('refuses %s with 400 and its message key, writing nothing', async (_, payload, path, key) => {
    const before = await snapshot(server.ctx);
    const res = await post(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      errorCode: 'invalidInput',
      data: { issues: [{ path: `body${path}`, message: key }] },
    });
    expect(await snapshot(server.ctx)).toBe(before);
  });

  it('refuses a body that is not an object', async () => {
    const before = await snapshot(server.ctx);
    const res = await post(['not', 'an', 'object']);
    expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    expect(await snapshot(server.ctx)).toBe(before);
  });
});
