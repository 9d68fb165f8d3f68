import type { MemberRole } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberStatus } from '../../src/db/database.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from './world.js';

describe('member PATCH', () => {
  let server: TestServer;
  let owner: UserRow;
  let admin: UserRow;
  let team: { id: string; alias: string | null };
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
    owner = await createUser(server.ctx, {
      email: 'otto@example.com',
      nickname: 'Otto',
      password: null,
    });
    admin = await createUser(server.ctx, {
      email: 'ada@example.com',
      nickname: 'Ada',
      password: null,
    });
    team = await createTeam(server.ctx, { owner, name: 'Redazione', alias: 'redazione' });
    await addMember(server.ctx, { teamId: team.id, user: admin, role: 'admin' });
  });
  afterAll(() => server.close());

  async function member(role: MemberRole, status: MemberStatus = 'active', nickname?: string) {
    const n = ++people;
    const user = await createUser(server.ctx, {
      email: `p${n}@example.com`,
      nickname:
        nickname ??
        `Persona ${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + Math.floor(n / 26))}`,
      password: null,
    });
    await addMember(server.ctx, {
      teamId: team.id,
      user,
      role,
      status,
      ...(nickname ? { nickname } : {}),
    });
    return user;
  }
  const patch = async (target: UserRow, ops: unknown, as: UserRow = admin) =>
    server.app.inject({
      method: 'PATCH',
      url: `/api/teams/${team.id}/members/${target.id}`,
      payload: ops as object,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, as)}` },
    });
  const replace = (path: string, value: string) => [{ op: 'replace', path, value }];
  const row = (user: UserRow) =>
    server.ctx.db
      .selectFrom('team_members')
      .selectAll()
      .where('team_id', '=', team.id)
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();

  it('changes the role of an active standard member, never to owner', async () => {
    const target = await member('uploader');
    const res = await patch(target, replace('/role', 'admin'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ userId: target.id, role: 'admin' });
    expect((await row(target)).role).toBe('admin');
    expect((await patch(target, replace('/role', 'viewer'))).json()).toMatchObject({
      role: 'viewer',
    });

    const toOwner = await patch(target, replace('/role', 'owner'));
    expect(toOwner.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    expect((await row(target)).role).toBe('viewer');
  });

  it('refuses role changes of the owner, oneself, internal and not-active members', async () => {
    const invited = await member('viewer', 'invited');
    const disabled = await member('viewer', 'disabled');
    const internal = await createUser(server.ctx, { email: 'int@example.com', password: null });
    await server.ctx.db
      .updateTable('users')
      .set({ kind: 'internal', team_id: team.id })
      .where('id', '=', internal.id)
      .execute();
    await addMember(server.ctx, {
      teamId: team.id,
      user: { ...internal, kind: 'internal' },
      role: 'uploader',
      nickname: 'Interno',
    });
    for (const [target, as] of [
      [owner, admin],
      [admin, admin],
      [owner, owner],
      [invited, admin],
      [disabled, admin],
      [internal, owner],
    ] as const) {
      const before = await row(target);
      const res = await patch(target, replace('/role', 'viewer'), as);
      expect(res.json(), `${target.email ?? ''} by ${as.email ?? ''}`).toMatchObject({
        statusCode: 403,
        errorCode: 'forbidden',
      });
      expect(await row(target)).toEqual(before);
    }
  });

  it('disables and reactivates others; a disabled member loses access at once', async () => {
    const target = await member('uploader');
    const token = await accessToken(server.ctx, target);
    const get = () =>
      server.app.inject({
        url: `/api/teams/${team.id}/members`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await get()).statusCode).toBe(200);

    const off = await patch(target, replace('/status', 'disabled'));
    expect(off.json()).toMatchObject({ status: 'disabled' });
    expect((await get()).json()).toMatchObject({ statusCode: 404, errorCode: 'notFound' });
    // Disabled members cannot act either, even with a role that could.
    const again = await patch(admin, replace('/nickname', 'Nope'), target);
    expect(again.statusCode).toBe(404);

    const on = await patch(target, replace('/status', 'active'));
    expect(on.json()).toMatchObject({ status: 'active' });
    expect((await get()).statusCode).toBe(200);

    const banned = await member('viewer', 'banned');
    expect((await patch(banned, replace('/status', 'active'))).json()).toMatchObject({
      status: 'active',
    });
  });

  it('refuses status changes outside the transitions, of the owner and of oneself', async () => {
    const active = await member('viewer');
    const invited = await member('viewer', 'invited');
    const cases: [UserRow, string, UserRow][] = [
      [active, 'banned', admin],
      [active, 'left', admin],
      [active, 'active', admin],
      [invited, 'disabled', admin],
      [invited, 'active', admin],
      [owner, 'disabled', admin],
      [admin, 'disabled', admin],
      [owner, 'disabled', owner],
    ];
    for (const [target, status, as] of cases) {
      const before = await row(target);
      const res = await patch(target, replace('/status', status), as);
      expect(res.statusCode, `${status} ${target.email ?? ''}`).toBe(403);
      expect(await row(target)).toEqual(before);
    }
    expect((await patch(active, replace('/status', 'gone'))).statusCode).toBe(400);
  });

  it('renames by the §6 rule and keeps nicknames unique without regard to case', async () => {
    const uploader = await member('uploader', 'active', 'Ugo');
    const viewer = await member('viewer', 'active', 'Vera');
    expect(
      (await patch(uploader, replace('/nickname', 'Ugo Foscolo'), uploader)).json(),
    ).toMatchObject({ nickname: 'Ugo Foscolo' });
    expect((await row(uploader)).nickname_key).toBe('ugo foscolo');
    expect((await patch(viewer, replace('/nickname', 'Nope'), uploader)).statusCode).toBe(403);
    expect((await patch(owner, replace('/nickname', 'Capo'), admin)).statusCode).toBe(403);
    expect((await patch(owner, replace('/nickname', 'Capo'), owner)).json()).toMatchObject({
      nickname: 'Capo',
    });
    expect((await patch(viewer, replace('/nickname', 'Vera Rossi'), admin)).statusCode).toBe(200);

    const taken = await patch(viewer, replace('/nickname', '  UGO   foscolo '));
    expect(taken.json()).toMatchObject({ statusCode: 409, errorCode: 'nicknameAlreadyExists' });
    // Its own name in another case is no conflict.
    expect((await patch(viewer, replace('/nickname', 'VERA ROSSI'))).json()).toMatchObject({
      nickname: 'VERA ROSSI',
    });
    const bad = await patch(viewer, replace('/nickname', 'R2-D2'));
    expect(bad.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
  });

  it('applies all operations or none, in order, with test guards', async () => {
    const target = await member('uploader', 'active', 'Gino');
    const original = await row(target);
    const refused = [
      [
        { op: 'replace', path: '/nickname', value: 'Gino Bianchi' },
        { op: 'replace', path: '/status', value: 'banned' },
      ],
      [
        { op: 'replace', path: '/role', value: 'viewer' },
        { op: 'replace', path: '/email', value: 'x@example.com' },
      ],
      [
        { op: 'replace', path: '/role', value: 'viewer' },
        { op: 'add', path: '/nickname', value: 'Gino B' },
      ],
      [
        { op: 'test', path: '/role', value: 'admin' },
        { op: 'replace', path: '/role', value: 'viewer' },
      ],
      [
        { op: 'replace', path: '/status', value: 'disabled' },
        { op: 'replace', path: '/role', value: 'viewer' },
      ],
      [],
      { op: 'replace', path: '/role', value: 'viewer' },
    ];
    for (const ops of refused) {
      const res = await patch(target, ops);
      expect([400, 403], JSON.stringify(ops)).toContain(res.statusCode);
      expect(await row(target)).toEqual(original);
    }

    const ok = await patch(target, [
      { op: 'test', path: '/role', value: 'uploader' },
      { op: 'replace', path: '/role', value: 'viewer' },
      { op: 'replace', path: '/nickname', value: 'Gino Bianchi' },
      { op: 'replace', path: '/status', value: 'disabled' },
    ]);
    expect(ok.json()).toMatchObject({
      role: 'viewer',
      nickname: 'Gino Bianchi',
      status: 'disabled',
    });
    // Reactivate, then change the role: each operation sees the member as the earlier left it.
    const back = await patch(target, [
      { op: 'replace', path: '/status', value: 'active' },
      { op: 'replace', path: '/role', value: 'admin' },
    ]);
    expect(back.json()).toMatchObject({ role: 'admin', status: 'active' });
  });

  it('never leaves the team without its owner when admins change roles at once', async () => {
    const admins = [admin, await member('admin'), await member('admin'), await member('admin')];
    const others = [await member('uploader'), await member('viewer'), await member('uploader')];
    const targets = [owner, ...admins, ...others];
    const roles: MemberRole[] = ['viewer', 'uploader', 'admin'];
    const tokens = new Map<string, string>();
    for (const a of admins) tokens.set(a.id, await accessToken(server.ctx, a));
    const requests = [];
    for (let round = 0; round < 3; round++) {
      for (const [i, a] of admins.entries()) {
        for (const [j, t] of targets.entries()) {
          const ops =
            t.id === owner.id && j % 2 === 0
              ? [{ op: 'replace', path: '/status', value: 'disabled' }]
              : replace('/role', roles[(i + j + round) % roles.length] ?? 'viewer');
          requests.push(
            server.app.inject({
              method: 'PATCH',
              url: `/api/teams/${team.id}/members/${t.id}`,
              payload: ops,
              headers: { authorization: `Bearer ${tokens.get(a.id) ?? ''}` },
            }),
          );
        }
      }
    }
    const results = await Promise.all(requests);
    const statuses = new Set(results.map((r) => r.statusCode));
    expect([...statuses].every((s) => s === 200 || s === 403)).toBe(true);
    expect(statuses.has(200)).toBe(true);

    const owners = await server.ctx.db
      .selectFrom('team_members')
      .select(['user_id', 'status'])
      .where('team_id', '=', team.id)
      .where('role', '=', 'owner')
      .execute();
    expect(owners).toEqual([{ user_id: owner.id, status: 'active' }]);
    const teamRow = await server.ctx.db
      .selectFrom('teams')
      .select('owner_id')
      .where('id', '=', team.id)
      .executeTakeFirstOrThrow();
    expect(teamRow.owner_id).toBe(owner.id);
  });

  it('lets only one of two admins demoting each other at the same moment win', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await member('admin');
      const b = await member('admin');
      const [ab, ba] = await Promise.all([
        patch(b, replace('/role', 'viewer'), a),
        patch(a, replace('/role', 'viewer'), b),
      ]);
      expect([ab.statusCode, ba.statusCode].sort()).toEqual([200, 403]);
      const roles = [(await row(a)).role, (await row(b)).role].sort();
      expect(roles).toEqual(['admin', 'viewer']);
    }
  });
});
