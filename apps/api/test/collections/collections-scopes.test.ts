import { collectionListResponseSchema, collectionSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam } from '../helpers/factories.js';
import { BASE, ordered, startListEnv, type ListEnv, type Stored } from './list-env.js';

describe("collections: members' and every team's lists, read marks", () => {
  let env: ListEnv;
  beforeAll(async () => {
    env = await startListEnv();
  });
  afterAll(() => env.server.close());

  it("lists a member's collections whatever the member's status", async () => {
    const { server, teamA, person, store, get, walk, ids } = env;
    const gone = await person('Gino');
    await addMember(server.ctx, { teamId: teamA.id, user: gone, role: 'uploader' });
    const made = await store({
      teamId: teamA.id,
      creator: gone,
      mode: 'collaborative',
      updatedAt: BASE - 60_000,
    });
    await server.ctx.db
      .updateTable('team_members')
      .set({ status: 'left' })
      .where('team_id', '=', teamA.id)
      .where('user_id', '=', gone.id)
      .execute();
    expect(await ids(`/teams/${teamA.id}/members/${gone.id}/collections`)).toEqual([made.id]);

    // Removed altogether: no member to ask for, but the collection stays, its owner unnamed.
    await server.ctx.db
      .deleteFrom('team_members')
      .where('team_id', '=', teamA.id)
      .where('user_id', '=', gone.id)
      .execute();
    expect((await get(`/teams/${teamA.id}/members/${gone.id}/collections`)).json()).toMatchObject({
      statusCode: 404,
      errorCode: 'notFound',
    });
    const [shown] = await walk(`/teams/${teamA.id}/collections?member=${gone.id}`);
    expect(shown?.collectionId).toBe(made.id);
    expect(shown?.owner).toEqual({ userId: gone.id, nickname: null, avatarUrl: null });
  });

  it("lists every team's collections the caller may see, and none of a team it is disabled in", async () => {
    const { server, teamA, stored, person, store, walk, ids } = env;
    const { admin, uploader, mate } = env.users;
    const walker = await person('Walter');
    const teamB = await createTeam(server.ctx, { owner: walker, name: 'B', alias: 'lists-b' });
    const teamC = await createTeam(server.ctx, { owner: admin, name: 'C', alias: 'lists-c' });
    await addMember(server.ctx, { teamId: teamA.id, user: walker, role: 'viewer' });
    await addMember(server.ctx, { teamId: teamB.id, user: uploader, role: 'uploader' });
    await addMember(server.ctx, {
      teamId: teamC.id,
      user: uploader,
      role: 'admin',
      status: 'disabled',
    });
    await addMember(server.ctx, { teamId: teamB.id, user: mate, role: 'admin' });
    for (let i = 0; i < 12; i++) {
      await store({
        teamId: teamB.id,
        creator: i % 2 === 0 ? walker : uploader,
        mode: i % 3 === 0 ? 'collaborative' : 'owned',
        updatedAt: BASE + 30_000 + i * 90_000,
        tags: i % 2 === 0 ? [mate] : [],
      });
      await store({
        teamId: teamC.id,
        creator: admin,
        mode: 'collaborative',
        updatedAt: BASE + 45_000 + i * 90_000,
        tags: [mate],
      });
    }
    const visibleToUploader = (s: Stored) =>
      (s.teamId === teamA.id || s.teamId === teamB.id) &&
      (s.createdBy === uploader.id || s.mode === 'collaborative');
    expect(await ids('/collections', uploader, 9)).toEqual(
      ordered(stored.filter(visibleToUploader)),
    );
    expect(await ids(`/collections?tagged=${mate.id}&sort=asc`, uploader, 4)).toEqual(
      ordered(
        stored.filter((s) => visibleToUploader(s) && s.tags.includes(mate.id)),
        'asc',
      ),
    );
    const t = BASE + 6 * 60_000;
    expect(await ids(`/collections?from=${t}`, uploader)).toEqual(
      ordered(stored.filter((s) => visibleToUploader(s) && s.updatedAt >= t)),
    );
    // A viewer in A and owner of B sees all of both.
    expect(await ids('/collections', walker, 20)).toEqual(
      ordered(stored.filter((s) => s.teamId === teamA.id || s.teamId === teamB.id)),
    );
    const outsider = await person('Otto');
    expect(await ids('/collections', outsider)).toEqual([]);
    // Names come from each row's own team.
    const rows = await walk(`/collections?tagged=${mate.id}`, mate);
    expect(rows.map((r) => r.teamId)).toContain(teamB.id);
    for (const row of rows)
      expect(row.taggedMembers).toContainEqual({
        userId: mate.id,
        nickname: 'Mara',
        avatarUrl: null,
      });
  });

  it('marks a collection read when it is opened, for the caller only', async () => {
    const { server, clock, teamA, store, get } = env;
    const { owner, admin, mate, viewer } = env.users;
    const c = await store({
      teamId: teamA.id,
      creator: admin,
      mode: 'owned',
      updatedAt: BASE + 10 * 86_400_000,
      tags: [viewer, mate],
    });
    const open = async (as: UserRow) => {
      const res = await get(`/teams/${teamA.id}/collections/${c.id}`, as);
      expect(res.statusCode, res.body).toBe(200);
      return collectionSchema.parse(res.json());
    };
    const listed = async (as: UserRow) =>
      collectionListResponseSchema
        .parse((await get(`/teams/${teamA.id}/collections?limit=1`, as)).json())
        .collections.find((x) => x.collectionId === c.id);
    expect((await listed(viewer))?.readAt).toBeNull();

    clock.now += 5_000;
    const first = await open(viewer);
    expect(first.readAt).toBe(new Date(clock.now).toISOString());
    expect((await listed(viewer))?.readAt).toBe(first.readAt);
    expect((await listed(owner))?.readAt).toBeNull();

    clock.now += 5_000;
    const again = await open(viewer);
    expect(again.readAt).toBe(new Date(clock.now).toISOString());
    // Opening changes nothing of the collection itself.
    expect(again.updatedAt).toBe(first.updatedAt);
    const marks = await server.ctx.db
      .selectFrom('collection_reads')
      .selectAll()
      .where('collection_id', '=', c.id)
      .execute();
    expect(marks).toEqual([{ collection_id: c.id, user_id: viewer.id, read_at: clock.now }]);

    expect(again).toMatchObject({
      name: expect.any(String) as string,
      owner: { userId: admin.id, nickname: 'Adele' },
      tags: [viewer.id, mate.id],
    });
    expect(again.taggedMembers.map((m) => m.nickname)).toEqual(
      [viewer, mate].map((u) => u.nickname),
    );
  });
});
