import { memberListResponseSchema, memberSchema, type Member } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from './world.js';

describe('members: list, search, details, removal', () => {
  let server: TestServer;
  let owner: UserRow;
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
    owner = await createUser(server.ctx, {
      email: 'lia@example.com',
      nickname: 'Lia',
      password: null,
    });
  });
  afterAll(() => server.close());

  async function person(nickname: string) {
    return createUser(server.ctx, { email: `m${++people}@example.com`, nickname, password: null });
  }
  const get = async (url: string, as: UserRow = owner) =>
    server.app.inject({
      url: `/api${url}`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
    });
  const list = async (url: string, as: UserRow = owner) => {
    const res = await get(url, as);
    expect(res.statusCode, res.body).toBe(200);
    return memberListResponseSchema.parse(res.json());
  };

  it('pages through 45 members oldest first, without gaps or repeats', async () => {
    const team = await createTeam(server.ctx, { owner, name: 'Big', alias: 'big-team' });
    const start = server.ctx.clock();
    for (let i = 0; i < 44; i++) {
      // Several members share a creation time: the id breaks the tie.
      await addMember(server.ctx, {
        teamId: team.id,
        user: await person(
          `Member ${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
        ),
        role: 'viewer',
        createdAt: start + 1000 + Math.floor(i / 4),
      });
    }
    const seen: Member[] = [];
    let lastKey: string | null = null;
    const sizes: number[] = [];
    do {
      const query: string = lastKey ? `?lastKey=${lastKey}` : '';
      const page = await list(`/teams/${team.id}/members${query}`);
      sizes.push(page.members.length);
      seen.push(...page.members);
      lastKey = page.pagination.lastKey;
    } while (lastKey);
    expect(sizes).toEqual([20, 20, 5]);
    expect(new Set(seen.map((m) => m.userId)).size).toBe(45);
    expect(seen[0]?.userId).toBe(owner.id);
    const order = seen.map((m) => [Date.parse(m.createdAt), m.userId] as const);
    const sorted = [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(order).toEqual(sorted);

    const small = await list(`/teams/big-team/members?limit=7`);
    expect(small.members).toHaveLength(7);
    expect((await get(`/teams/${team.id}/members?limit=21`)).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidInput',
    });
    expect((await get(`/teams/${team.id}/members?lastKey=bm90LWpzb24`)).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidInput',
    });
  });

  it('filters by nickname prefix, ignoring case and accents’ case, with wildcards taken literally', async () => {
    const team = await createTeam(server.ctx, { owner, name: 'Search', alias: 'search-team' });
    const names = [
      'Marco',
      'mario',
      'Maria Luisa',
      'Élodie',
      'élise',
      'Eleonora',
      '50% off',
      '5_x',
    ];
    for (const nickname of names) {
      await addMember(server.ctx, {
        teamId: team.id,
        user: await person(nickname),
        role: 'viewer',
        nickname,
      });
    }
    const search = async (prefix: string) =>
      (await list(`/teams/${team.id}/members?prefix=${encodeURIComponent(prefix)}`)).members
        .map((m) => m.nickname)
        .sort();
    expect(await search('mar')).toEqual(['Marco', 'Maria Luisa', 'mario']);
    expect(await search('MARI')).toEqual(['Maria Luisa', 'mario']);
    expect(await search('maria ')).toEqual(['Maria Luisa']);
    expect(await search('él')).toEqual(['élise', 'Élodie'].sort());
    expect(await search('ÉLO')).toEqual(['Élodie']);
    expect(await search('el')).toEqual(['Eleonora']);
    expect(await search('50%')).toEqual(['50% off']);
    expect(await search('%')).toEqual([]);
    expect(await search('5_')).toEqual(['5_x']);
    expect(await search('_')).toEqual([]);
    expect(await search('li')).toEqual(['Lia']);
    expect((await list(`/teams/${team.id}/members?prefix=`)).members).toHaveLength(
      names.length + 1,
    );
    expect((await get(`/teams/${team.id}/members?prefix=${'a'.repeat(31)}`)).statusCode).toBe(400);
  });

  it('shows one member; invitations carry their expiry', async () => {
    const team = await createTeam(server.ctx, { owner, name: 'Detail', alias: 'detail-team' });
    const viewer = await person('Vittoria');
    const invited = await person('Ivo');
    await addMember(server.ctx, { teamId: team.id, user: viewer, role: 'viewer' });
    await addMember(server.ctx, {
      teamId: team.id,
      user: invited,
      role: 'uploader',
      status: 'invited',
    });

    const res = await get(`/teams/detail-team/members/${invited.id}`, viewer);
    expect(res.statusCode).toBe(200);
    const member = memberSchema.parse(res.json());
    expect(member).toMatchObject({
      userId: invited.id,
      status: 'invited',
      role: 'uploader',
      email: invited.email,
      username: null,
    });
    expect(member.inviteExpiresAt).toBeGreaterThan(server.ctx.clock());
    const me = memberSchema.parse(
      (await get(`/teams/${team.id}/members/${viewer.id}`, viewer)).json(),
    );
    expect(me).toMatchObject({ status: 'active', inviteExpiresAt: null, nickname: 'Vittoria' });
    expect((await get(`/teams/${team.id}/members/${owner.id}`, viewer)).json()).toMatchObject({
      role: 'owner',
    });
    // Not in this team, or no such member: 404 alike.
    const stranger = await person('Stra');
    expect((await get(`/teams/${team.id}/members/${stranger.id}`, viewer)).statusCode).toBe(404);
    expect((await get(`/teams/${team.id}/members/not-a-uuid`, viewer)).statusCode).toBe(400);
  });

  it('removes a member, who loses access at once; never the owner, never oneself', async () => {
    const team = await createTeam(server.ctx, { owner, name: 'Removal', alias: 'removal-team' });
    const admin = await person('Amelia');
    const leaving = await person('Luca');
    await addMember(server.ctx, { teamId: team.id, user: admin, role: 'admin' });
    await addMember(server.ctx, { teamId: team.id, user: leaving, role: 'uploader' });
    const remove = async (target: UserRow, as: UserRow) =>
      server.app.inject({
        method: 'DELETE',
        url: `/api/teams/${team.id}/members/${target.id}`,
        headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
      });

    expect((await get(`/teams/${team.id}/members`, leaving)).statusCode).toBe(200);
    expect((await remove(owner, admin)).json()).toMatchObject({
      statusCode: 403,
      errorCode: 'forbidden',
    });
    expect((await remove(admin, admin)).statusCode).toBe(403);
    expect((await remove(owner, owner)).statusCode).toBe(403);
    expect((await remove(admin, leaving)).statusCode).toBe(403);

    const res = await remove(leaving, admin);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(`/teams/${team.id}/members`, leaving)).json()).toMatchObject({
      statusCode: 404,
      errorCode: 'notFound',
    });
    // A standard account outlives the membership.
    expect(
      await server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', leaving.id)
        .executeTakeFirst(),
    ).toEqual({ id: leaving.id });
    expect((await remove(leaving, admin)).statusCode).toBe(404);
    const members = await list(`/teams/${team.id}/members`);
    expect(members.members.map((m) => m.userId).sort()).toEqual([owner.id, admin.id].sort());
  });
});
