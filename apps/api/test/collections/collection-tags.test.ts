import { collectionListResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createTeam } from '../helpers/factories.js';
import { accessToken } from '../members/world.js';
import { startPatchEnv, type PatchEnv } from './patch-env.js';
import { snapshot } from './world.js';

describe('collection PATCH: tags', () => {
  let env: PatchEnv;
  beforeAll(async () => {
    env = await startPatchEnv();
  });
  afterAll(() => env.server.close());

  it('sets, replaces and clears tags, naming the tagged members', async () => {
    const { clock, team, collection, ok, row, tagRows } = env;
    const { admin, uploader, mate, viewer } = env.users;
    const c = await collection({});
    const set = await ok(c.id, [{ op: 'replace', path: '/tags', value: [viewer.id, mate.id] }]);
    // Tags keep the order they were set in.
    expect(set.tags).toEqual([viewer.id, mate.id]);
    expect(set.taggedMembers).toEqual(
      [viewer, mate].map((u) => ({ userId: u.id, nickname: u.nickname, avatarUrl: null })),
    );
    expect((await tagRows(c.id)).map((t) => [t.user_id, t.team_id, t.updated_at])).toEqual(
      [viewer.id, mate.id].map((id) => [id, team.id, clock.now]),
    );

    const replaced = await ok(c.id, [
      { op: 'replace', path: '/tags', value: [uploader.id, admin.id, mate.id] },
    ]);
    expect(replaced.tags).toEqual([uploader.id, admin.id, mate.id]);
    expect((await tagRows(c.id)).map((t) => t.user_id)).toEqual([uploader.id, admin.id, mate.id]);

    const cleared = await ok(c.id, [{ op: 'replace', path: '/tags', value: [] }]);
    expect(cleared).toMatchObject({ tags: [], taggedMembers: [] });
    expect(await tagRows(c.id)).toEqual([]);
    expect((await row(c.id)).updated_at).toBe(clock.now);
  });

  it('refuses tags that are not active members of the team, changing nothing', async () => {
    const { server, team, person, collection, patch, row } = env;
    const { mate, viewer } = env.users;
    const stranger = await person('Stefano');
    const foreignOwner = await person('Fosco');
    const other = await createTeam(server.ctx, { owner: foreignOwner, name: 'Other' });
    await addMember(server.ctx, { teamId: other.id, user: stranger, role: 'viewer' });
    const disabled = await person('Dario');
    await addMember(server.ctx, {
      teamId: team.id,
      user: disabled,
      role: 'viewer',
      status: 'disabled',
    });
    const invited = await person('Irene');
    await addMember(server.ctx, {
      teamId: team.id,
      user: invited,
      role: 'viewer',
      status: 'invited',
    });
    const c = await collection({ tags: [viewer] });
    for (const bad of [stranger, foreignOwner, disabled, invited]) {
      const before = await snapshot(server.ctx);
      const res = await patch(c.id, [
        { op: 'replace', path: '/name', value: 'Should not stick' },
        { op: 'replace', path: '/tags', value: [mate.id, bad.id] },
      ]);
      expect(res.json(), bad.nickname ?? '').toMatchObject({
        statusCode: 400,
        errorCode: 'invalidTeamMember',
      });
      expect(await snapshot(server.ctx)).toBe(before);
    }
    // A random id that is no user at all is refused the same way.
    const res = await patch(c.id, [
      { op: 'replace', path: '/tags', value: ['01900000-0000-7000-8000-000000000000'] },
    ]);
    expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidTeamMember' });
    expect((await row(c.id)).name).toBe('Original');
  });

  it('lets concurrent changes of one collection take turns', async () => {
    const { collection, patch, tagRows } = env;
    const { owner, admin, uploader, mate, viewer } = env.users;
    const c = await collection({});
    const sets = [[viewer], [mate], [viewer, mate], [uploader], [admin, mate], [owner]];
    const results = await Promise.all(
      sets.map((users) =>
        patch(c.id, [{ op: 'replace', path: '/tags', value: users.map((u) => u.id) }]),
      ),
    );
    for (const res of results) expect(res.statusCode, res.body).toBe(200);
    const final = (await tagRows(c.id)).map((t) => t.user_id);
    expect(sets.map((users) => users.map((u) => u.id))).toContainEqual(final);

    // With a guard, exactly one of several identical guarded changes wins.
    const guarded = await Promise.all(
      ['One', 'Two', 'Three'].map((name) =>
        patch(c.id, [
          { op: 'test', path: '/name', value: 'Original' },
          { op: 'replace', path: '/name', value: name },
        ]),
      ),
    );
    expect(guarded.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('keeps the tagged list in step: new tags show, removed ones go, a change moves it first', async () => {
    const { server, clock, team, person, collection, ok } = env;
    const { owner, viewer } = env.users;
    const tagged = await person('Tina');
    await addMember(server.ctx, { teamId: team.id, user: tagged, role: 'viewer' });
    const list = async (sort = 'desc') => {
      const res = await server.app.inject({
        url: `/api/teams/${team.id}/collections?tagged=${tagged.id}&sort=${sort}`,
        headers: { authorization: `Bearer ${await accessToken(server.ctx, owner)}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return collectionListResponseSchema.parse(res.json()).collections.map((c) => c.collectionId);
    };
    const a = await collection({});
    clock.now += 1000;
    const b = await collection({});
    clock.now += 1000;
    const c = await collection({ tags: [tagged] });
    expect(await list()).toEqual([c.id]);

    await ok(a.id, [{ op: 'replace', path: '/tags', value: [tagged.id] }]);
    await ok(b.id, [{ op: 'replace', path: '/tags', value: [viewer.id, tagged.id] }]);
    expect(await list()).toEqual([b.id, a.id, c.id]);
    expect(await list('asc')).toEqual([c.id, a.id, b.id]);

    // A rename moves c's updated_at, and its tag row's copy with it.
    await ok(c.id, [{ op: 'replace', path: '/name', value: 'Touched' }]);
    expect(await list()).toEqual([c.id, b.id, a.id]);

    await ok(b.id, [{ op: 'replace', path: '/tags', value: [viewer.id] }]);
    expect(await list()).toEqual([c.id, a.id]);
    const viewerList = await server.app.inject({
      url: `/api/teams/${team.id}/collections?tagged=${viewer.id}&limit=1`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, owner)}` },
    });
    expect(collectionListResponseSchema.parse(viewerList.json()).collections[0]?.collectionId).toBe(
      b.id,
    );
  });
});
