import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken } from '../members/world.js';
import { startPatchEnv, type PatchEnv } from './patch-env.js';
import { createCollection, snapshot } from './world.js';

describe('collection PATCH: name, description, operations', () => {
  let env: PatchEnv;
  beforeAll(async () => {
    env = await startPatchEnv();
  });
  afterAll(() => env.server.close());

  it('renames, moving updatedAt and updatedBy, and the tag rows with them', async () => {
    const { clock, team, collection, ok, row, tagRows } = env;
    const { owner, admin, viewer } = env.users;
    const c = await collection({ tags: [viewer] });
    const created = await row(c.id);
    const body = await ok(c.id, [{ op: 'replace', path: '/name', value: '  Renamed  ' }]);
    expect(body).toMatchObject({
      collectionId: c.id,
      name: 'Renamed',
      updatedBy: admin.id,
      updatedAt: new Date(clock.now).toISOString(),
      createdAt: new Date(created.created_at).toISOString(),
      createdBy: owner.id,
      tags: [viewer.id],
    });
    expect(await row(c.id)).toEqual({
      ...created,
      name: 'Renamed',
      updated_at: clock.now,
      updated_by: admin.id,
    });
    expect(await tagRows(c.id)).toEqual([
      {
        collection_id: c.id,
        user_id: viewer.id,
        team_id: team.id,
        updated_at: clock.now,
        position: 0,
      },
    ]);
  });

  it('sets, clears and removes the description', async () => {
    const { collection, ok, row } = env;
    const c = await collection({ description: 'Before' });
    expect(
      (await ok(c.id, [{ op: 'replace', path: '/description', value: ' After ' }])).description,
    ).toBe('After');
    expect(
      (await ok(c.id, [{ op: 'replace', path: '/description', value: '   ' }])).description,
    ).toBeNull();
    expect((await row(c.id)).description).toBeNull();
    expect(
      (await ok(c.id, [{ op: 'add', path: '/description', value: 'Again' }])).description,
    ).toBe('Again');
    expect((await ok(c.id, [{ op: 'remove', path: '/description' }])).description).toBeNull();
    expect((await row(c.id)).description).toBeNull();
  });

  it('applies operations in order; a failed test refuses the whole list', async () => {
    const { server, collection, patch, ok } = env;
    const { mate, viewer } = env.users;
    const c = await collection({ tags: [viewer, mate] });
    const body = await ok(c.id, [
      { op: 'test', path: '/name', value: 'Original' },
      { op: 'test', path: '/tags', value: [viewer.id, mate.id] },
      { op: 'test', path: '/description' },
      { op: 'replace', path: '/name', value: 'Step one' },
      { op: 'test', path: '/name', value: 'Step one' },
      { op: 'replace', path: '/name', value: 'Step two' },
    ]);
    expect(body.name).toBe('Step two');

    for (const failing of [
      { op: 'test', path: '/name', value: 'Original' },
      { op: 'test', path: '/tags', value: [viewer.id] },
      // Tags are compared in their order.
      { op: 'test', path: '/tags', value: [mate.id, viewer.id] },
      { op: 'test', path: '/description', value: 'Something' },
    ]) {
      const before = await snapshot(server.ctx);
      const res = await patch(c.id, [
        { op: 'replace', path: '/description', value: 'Changed' },
        failing,
      ]);
      expect(res.json(), failing.path).toMatchObject({
        statusCode: 400,
        errorCode: 'invalidInput',
        message: `Operation 1: test failed at ${failing.path}`,
      });
      expect(await snapshot(server.ctx)).toBe(before);
    }
  });

  it('writes nothing when nothing changes, so the collection keeps its place', async () => {
    const { collection, ok, row, tagRows } = env;
    const { mate, viewer } = env.users;
    const c = await collection({ tags: [viewer, mate] });
    const before = await row(c.id);
    const body = await ok(c.id, [
      { op: 'replace', path: '/name', value: 'Original' },
      { op: 'replace', path: '/tags', value: [viewer.id, mate.id] },
      { op: 'remove', path: '/description' },
    ]);
    expect(body.updatedAt).toBe(new Date(before.updated_at).toISOString());
    expect(await row(c.id)).toEqual(before);
    expect((await tagRows(c.id)).map((t) => t.updated_at)).toEqual([
      before.updated_at,
      before.updated_at,
    ]);
  });

  it.each([
    ['an empty list', []],
    ['an unknown path', [{ op: 'replace', path: '/owner', value: 'someone' }]],
    ['an unknown mode', [{ op: 'replace', path: '/mode', value: 'public' }]],
    ['a move', [{ op: 'move', from: '/name', path: '/description' }]],
    ['a removed name', [{ op: 'remove', path: '/name' }]],
    ['a short name', [{ op: 'replace', path: '/name', value: 'x' }]],
    ['a long description', [{ op: 'replace', path: '/description', value: 'd'.repeat(251) }]],
    ['a tag that is not an id', [{ op: 'replace', path: '/tags', value: ['someone'] }]],
    [
      'repeated tags',
      [
        {
          op: 'replace',
          path: '/tags',
          value: ['01900000-0000-7000-8000-000000000001', '01900000-0000-7000-8000-000000000001'],
        },
      ],
    ],
    ['not a list', { op: 'replace', path: '/name', value: 'Object' }],
  ])('refuses %s with 400 invalidInput, changing nothing', async (_, ops) => {
    const { server, collection, patch } = env;
    const c = await collection({});
    const before = await snapshot(server.ctx);
    const res = await patch(c.id, ops);
    expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    expect(await snapshot(server.ctx)).toBe(before);
  });

  it('reports the message key of a refused value', async () => {
    const { collection, patch } = env;
    const c = await collection({});
    const res = await patch(c.id, [{ op: 'replace', path: '/name', value: 'x' }]);
    expect(JSON.stringify(res.json())).toContain('collectionNameShort');
    const many = Array.from(
      { length: 51 },
      (_, i) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    );
    const tooMany = await patch(c.id, [{ op: 'replace', path: '/tags', value: many }]);
    expect(tooMany.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
  });

  it('lets an uploader change its own collections only', async () => {
    const { server, team, collection, patch, ok } = env;
    const { uploader, mate, viewer } = env.users;
    const own = await collection({ creator: uploader });
    expect(
      (await ok(own.id, [{ op: 'replace', path: '/name', value: 'Mine' }], uploader)).name,
    ).toBe('Mine');
    const shared = await createCollection(server.ctx, {
      teamId: team.id,
      creator: mate,
      mode: 'collaborative',
    });
    const hidden = await collection({ creator: mate });
    const before = await snapshot(server.ctx);
    const rename = [{ op: 'replace', path: '/name', value: 'Taken' }];
    expect((await patch(shared.id, rename, uploader)).json()).toMatchObject({
      statusCode: 403,
      errorCode: 'forbidden',
    });
    expect((await patch(hidden.id, rename, uploader)).json()).toMatchObject({
      statusCode: 404,
      errorCode: 'notFound',
    });
    expect((await patch(own.id, rename, viewer)).json()).toMatchObject({
      statusCode: 403,
      errorCode: 'forbidden',
    });
    expect(await snapshot(server.ctx)).toBe(before);
  });

  it('lets owners and admins switch a collection between private and shared', async () => {
    const { server, collection, ok, patch, row } = env;
    const { owner, admin, uploader } = env.users;
    const c = await collection({});
    const asUploader = async () =>
      server.app.inject({
        method: 'GET',
        url: `/api/teams/${env.team.id}/collections/${c.id}`,
        headers: { authorization: `Bearer ${await accessToken(server.ctx, uploader)}` },
      });
    expect((await asUploader()).statusCode).toBe(404);

    const shared = await ok(
      c.id,
      [{ op: 'replace', path: '/mode', value: 'collaborative' }],
      owner,
    );
    expect(shared).toMatchObject({ mode: 'collaborative', updatedBy: owner.id });
    expect((await row(c.id)).mode).toBe('collaborative');
    // The contributors now see it, and may upload into it.
    expect((await asUploader()).json()).toMatchObject({
      collectionId: c.id,
      mode: 'collaborative',
    });

    const back = await ok(
      c.id,
      [
        { op: 'test', path: '/mode', value: 'collaborative' },
        { op: 'replace', path: '/mode', value: 'owned' },
      ],
      admin,
    );
    expect(back.mode).toBe('owned');
    expect((await asUploader()).statusCode).toBe(404);

    const failed = await patch(c.id, [{ op: 'test', path: '/mode', value: 'collaborative' }]);
    expect(failed.json()).toMatchObject({
      statusCode: 400,
      message: 'Operation 0: test failed at /mode',
    });
  });

  it('refuses an uploader a switch of mode, even on its own collection', async () => {
    const { server, collection, patch } = env;
    const { uploader } = env.users;
    const own = await collection({ creator: uploader });
    const before = await snapshot(server.ctx);
    for (const mode of ['collaborative', 'owned']) {
      const res = await patch(own.id, [{ op: 'replace', path: '/mode', value: mode }], uploader);
      expect(res.json(), mode).toMatchObject({ statusCode: 403, errorCode: 'forbidden' });
    }
    expect(await snapshot(server.ctx)).toBe(before);
  });
});
