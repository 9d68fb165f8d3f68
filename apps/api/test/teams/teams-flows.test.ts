import { teamListResponseSchema, teamSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/cli/admin-commands.js';
import { startSession } from '../../src/auth/sessions.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('team flows', () => {
  let server: TestServer;
  let owner: UserRow;
  let ownerToken: string;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '10000' });
    owner = await createUser(server.ctx, { email: 'olga@example.com', nickname: 'Olga' });
    ownerToken = (await startSession(server.ctx, owner, { identityProvider: false })).AccessToken;
  });
  afterAll(() => server.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    token = ownerToken,
  ) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: { authorization: `Bearer ${token}` },
    });

  async function newTeam(name: string, mode = 'collaborative', nickname?: string) {
    const res = await call('POST', '/teams', { name, mode, ...(nickname ? { nickname } : {}) });
    expect(res.statusCode).toBe(201);
    return res.json<{ teamId: string }>().teamId;
  }

  it('creates a team whose creator is the owner with the given nickname', async () => {
    const teamId = await newTeam('  Wedding 2026  ', 'controlled', 'Olga R.');
    const team = teamSchema.parse((await call('GET', `/teams/${teamId}`)).json());
    expect(team).toMatchObject({
      name: 'Wedding 2026',
      mode: 'controlled',
      ownerId: owner.id,
      membersCount: 1,
      aliases: [],
      starAlias: null,
    });
    const member = await server.ctx.db
      .selectFrom('team_members')
      .selectAll()
      .where('team_id', '=', teamId)
      .executeTakeFirstOrThrow();
    expect(member).toMatchObject({
      user_id: owner.id,
      role: 'owner',
      status: 'active',
      nickname: 'Olga R.',
    });
  });

  it('names an owner who left the nickname blank by their preferred name, else their full name', async () => {
    const ownerNickname = async (token: string) => {
      const res = await call('POST', '/teams', { name: 'Named', mode: 'collaborative' }, token);
      expect(res.statusCode).toBe(201);
      const row = await server.ctx.db
        .selectFrom('team_members')
        .select('nickname')
        .where('team_id', '=', res.json<{ teamId: string }>().teamId)
        .executeTakeFirstOrThrow();
      return row.nickname;
    };
    const named = await createUser(server.ctx, { email: 'rita@example.com', nickname: 'Rita' });
    await server.ctx.db
      .updateTable('users')
      .set({ first_name: 'Margherita', last_name: 'Bianchi' })
      .where('id', '=', named.id)
      .execute();
    const namedToken = (await startSession(server.ctx, named, { identityProvider: false }))
      .AccessToken;
    expect(await ownerNickname(namedToken)).toBe('Rita');

    await server.ctx.db
      .updateTable('users')
      .set({ nickname: null })
      .where('id', '=', named.id)
      .execute();
    expect(await ownerNickname(namedToken)).toBe('Margherita Bianchi');
  });

  it('refuses to create a team without the global scope, and bad input, writing nothing', async () => {
    const plain = await createUser(server.ctx, { email: 'noscope@example.com' });
    await runAdminCommand(server.ctx, ['revoke-scope', 'noscope@example.com']);
    const token = (await startSession(server.ctx, plain, { identityProvider: false })).AccessToken;
    const before = await server.ctx.db.selectFrom('teams').select('id').execute();
    expect(
      (await call('POST', '/teams', { name: 'Mine', mode: 'collaborative' }, token)).json(),
    ).toMatchObject({ statusCode: 403, errorCode: 'forbidden' });
    // A refused name says so (spec §8 invalidTeamName), whatever it is refused for.
    for (const name of ['x', ' ', 'x'.repeat(51)]) {
      expect(
        (await call('POST', '/teams', { name, mode: 'collaborative' })).json(),
        name,
      ).toMatchObject({ statusCode: 400, errorCode: 'invalidTeamName' });
    }
    expect((await call('POST', '/teams', { name: 'x', mode: 'anarchy' })).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidTeamName',
    });
    expect(
      (await call('POST', '/teams', { name: 'Fine name', mode: 'anarchy' })).json(),
    ).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    expect((await call('POST', '/teams', { name: 'Fine name', mode: 'anarchy' })).statusCode).toBe(
      400,
    );
    expect((await call('POST', '/teams', { name: 'Fine name' })).statusCode).toBe(400);
    expect(await server.ctx.db.selectFrom('teams').select('id').execute()).toEqual(before);
    const anonymous = await server.app.inject({
      method: 'POST',
      url: '/api/teams',
      payload: { name: 'Mine', mode: 'collaborative' },
    });
    expect(anonymous.json()).toMatchObject({ statusCode: 401, errorCode: 'authorizationRequired' });
  });

  it('lists the caller’s teams 20 at a time, newest first, with the role, searchable by name', async () => {
    const user = await createUser(server.ctx, { email: 'lister@example.com' });
    const token = (await startSession(server.ctx, user, { identityProvider: false })).AccessToken;
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) {
      const res = await call(
        'POST',
        '/teams',
        {
          name: `Team ${String(i).padStart(2, '0')}${i % 10 === 0 ? ' Gala' : ''}`,
          mode: 'collaborative',
        },
        token,
      );
      ids.push(res.json<{ teamId: string }>().teamId);
    }
    const seen: string[] = [];
    let lastKey: string | null = null;
    let pages = 0;
    do {
      const res = await call(
        'GET',
        `/teams${lastKey ? `?lastKey=${lastKey}` : ''}`,
        undefined,
        token,
      );
      const body = teamListResponseSchema.parse(res.json());
      expect(body.teams.length).toBeLessThanOrEqual(20);
      expect(body.teams.every((t) => t.memberRole === 'owner')).toBe(true);
      seen.push(...body.teams.map((t) => t.teamId));
      lastKey = body.pagination.lastKey;
      pages++;
    } while (lastKey);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const gala = teamListResponseSchema.parse(
      (await call('GET', '/teams?search=gala', undefined, token)).json(),
    );
    expect(gala.teams.map((t) => t.name).sort()).toEqual([
      'Team 00 Gala',
      'Team 10 Gala',
      'Team 20 Gala',
      'Team 30 Gala',
      'Team 40 Gala',
    ]);
    const literal = teamListResponseSchema.parse(
      (await call('GET', '/teams?search=%25', undefined, token)).json(),
    );
    expect(literal.teams).toEqual([]);
    // A backslash and an underscore are searched literally on both databases.
    const archive = 'Archive C:\\photos_2026';
    await call('POST', '/teams', { name: archive, mode: 'collaborative' }, token);
    for (const search of ['\\', '_2026', 'c:\\photos']) {
      const url = `/teams?search=${encodeURIComponent(search)}`;
      const found = teamListResponseSchema.parse((await call('GET', url, undefined, token)).json());
      expect(
        found.teams.map((t) => t.name),
        search,
      ).toEqual([archive]);
    }
    expect((await call('GET', '/teams?lastKey=garbage', undefined, token)).json()).toMatchObject({
      errorCode: 'invalidInput',
    });
    expect((await call('GET', '/teams?limit=50', undefined, token)).statusCode).toBe(400);
  });

  it('counts only active members, in the list as in the team', async () => {
    const teamId = await newTeam('Counted');
    const emptyId = await newTeam('Counted alone');
    const statuses = ['active', 'active', 'invited', 'disabled'] as const;
    for (const [i, status] of statuses.entries()) {
      const user = await createUser(server.ctx, { email: `counted-${i}@example.com` });
      await addMember(server.ctx, {
        teamId,
        user,
        role: 'uploader',
        status,
        nickname: `Counted ${i}`,
      });
    }
    const listed = teamListResponseSchema.parse(
      (await call('GET', '/teams?search=counted')).json(),
    ).teams;
    expect(listed.map((t) => [t.name, t.membersCount])).toEqual([
      ['Counted alone', 1],
      ['Counted', 3],
    ]);
    expect(teamSchema.parse((await call('GET', `/teams/${teamId}`)).json()).membersCount).toBe(3);
    expect(teamSchema.parse((await call('GET', `/teams/${emptyId}`)).json()).membersCount).toBe(1);
  });

  it('searches team names without regard to case, accented and non-Latin letters included', async () => {
    const user = await createUser(server.ctx, { email: 'folder@example.com' });
    const token = (await startSession(server.ctx, user, { identityProvider: false })).AccessToken;
    const create = async (name: string) =>
      (await call('POST', '/teams', { name, mode: 'collaborative' }, token)).json<{
        teamId: string;
      }>().teamId;
    const names = async (search: string) =>
      teamListResponseSchema
        .parse(
          (
            await call('GET', `/teams?search=${encodeURIComponent(search)}`, undefined, token)
          ).json(),
        )
        .teams.map((t) => t.name)
        .sort();
    await create('ÉCOLE DE MUSIQUE');
    await create('Ὀδύσσεια');
    const renamed = await create('Coro');
    expect(await names('école')).toEqual(['ÉCOLE DE MUSIQUE']);
    expect(await names('ÉCOLE')).toEqual(['ÉCOLE DE MUSIQUE']);
    expect(await names('ὀδύσ')).toEqual(['Ὀδύσσεια']);
    // A rename keeps the search key in step.
    const res = await call(
      'PATCH',
      `/teams/${renamed}`,
      [{ op: 'replace', path: '/name', value: 'ÀRIA DEL CORO' }],
      token,
    );
    expect(res.statusCode).toBe(200);
    expect(await names('àri')).toEqual(['ÀRIA DEL CORO']);
    expect(await names('coro')).toEqual(['ÀRIA DEL CORO']);
  });

  it('patches the fields the role may change, and nothing at all when one operation is refused', async () => {
    const teamId = await newTeam('Patchable');
    const patch = (ops: unknown) => call('PATCH', `/teams/${teamId}`, ops);
    const ok = await patch([
      { op: 'replace', path: '/name', value: 'Renamed' },
      { op: 'add', path: '/description', value: 'About us' },
      { op: 'test', path: '/name', value: 'Renamed' },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(teamSchema.parse(ok.json())).toMatchObject({ name: 'Renamed', description: 'About us' });

    const refused = [
      [
        { op: 'replace', path: '/name', value: 'Fine' },
        { op: 'replace', path: '/ownerId', value: owner.id },
      ],
      [
        { op: 'replace', path: '/name', value: 'Fine' },
        { op: 'remove', path: '/name' },
      ],
      [
        { op: 'replace', path: '/name', value: 'Fine' },
        { op: 'test', path: '/name', value: 'Wrong' },
      ],
      [{ op: 'replace', path: '/starAlias', value: 'not-an-alias-of-ours' }],
      [{ op: 'move', path: '/name', from: '/description' }],
      [],
      { op: 'replace', path: '/name', value: 'Fine' },
    ];
    for (const ops of refused) {
      const res = await patch(ops);
      expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    }
    for (const value of ['x', '   ', 'x'.repeat(51)]) {
      const res = await patch([
        { op: 'add', path: '/description', value: 'Changed' },
        { op: 'replace', path: '/name', value },
      ]);
      expect(res.json(), value).toMatchObject({ statusCode: 400, errorCode: 'invalidTeamName' });
    }
    const team = teamSchema.parse((await call('GET', `/teams/${teamId}`)).json());
    expect(team).toMatchObject({ name: 'Renamed', description: 'About us' });
    expect(
      teamSchema.parse((await patch([{ op: 'remove', path: '/description' }])).json()).description,
    ).toBeNull();
  });

  it('adds aliases: validated, unique across teams, within the plan, the newest preferred', async () => {
    const teamId = await newTeam('Aliased');
    const add = (alias: string, star = true) =>
      call('POST', `/teams/${teamId}/aliases`, { alias, star });
    for (const bad of ['ab', '-start', 'end-', 'double--hyphen', 'UPPER CASE', 'x'.repeat(31)]) {
      expect((await add(bad)).json(), bad).toMatchObject({
        statusCode: 400,
        errorCode: 'invalidInput',
      });
    }
    const created = await add('  My-Club ');
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ alias: 'my-club' });
    expect((await add('second')).json()).toMatchObject({
      statusCode: 403,
      errorCode: 'quotaExceededAliases',
    });

    await runAdminCommand(server.ctx, ['set-plan', 'my-club', 'pro']);
    expect((await add('second')).statusCode).toBe(201);
    expect((await add('third', false)).statusCode).toBe(201);
    expect((await add('fourth')).json()).toMatchObject({ errorCode: 'quotaExceededAliases' });
    const team = teamSchema.parse((await call('GET', '/teams/third')).json());
    expect(team).toMatchObject({
      teamId,
      aliases: ['my-club', 'second', 'third'],
      starAlias: 'second',
    });

    const other = await newTeam('Other');
    const taken = await call('POST', `/teams/${other}/aliases`, { alias: 'my-club', star: true });
    expect(taken.json()).toMatchObject({
      statusCode: 409,
      errorCode: 'alreadyExists',
      data: { duplicate: 'alias' },
    });

    const star = await call('PATCH', `/teams/${teamId}`, [
      { op: 'replace', path: '/starAlias', value: 'third' },
    ]);
    expect(teamSchema.parse(star.json()).starAlias).toBe('third');
  });

  it('answers 404 for a team id or alias that does not exist', async () => {
    expect((await call('GET', '/teams/nowhere-at-all')).json()).toMatchObject({
      statusCode: 404,
      errorCode: 'notFound',
    });
    expect((await call('GET', '/teams/0190aaaa-aaaa-7aaa-8aaa-aaaaaaaaaaaa')).statusCode).toBe(404);
  });
});
