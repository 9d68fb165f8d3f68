import { hasPermission, type MemberRole, type Permission } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/auth/sessions.js';
import type { MemberStatus } from '../../src/db/database.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

type Caller = 'anonymous' | MemberRole | 'disabled' | 'outsider' | 'foreigner';
const CALLERS: Caller[] = [
  'anonymous',
  'owner',
  'admin',
  'uploader',
  'viewer',
  'disabled',
  'outsider',
  'foreigner',
];

describe('teams', () => {
  let server: TestServer;
  const tokens = new Map<Caller, string>();
  const users = new Map<Caller, UserRow>();
  let team: { id: string; alias: string | null };

  async function addMember(teamId: string, user: UserRow, role: MemberRole, status: MemberStatus) {
    const now = server.ctx.clock();
    await server.ctx.db
      .insertInto('team_members')
      .values({
        team_id: teamId,
        user_id: user.id,
        role,
        status,
        type: 'standard',
        nickname: user.nickname,
        email: user.email,
        created_at: now,
        created_by: null,
        joined_at: now,
        invite_expires_at: null,
        updated_at: now,
      })
      .execute();
  }

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '10000' });
    for (const caller of CALLERS.filter((c) => c !== 'anonymous')) {
      const user = await createUser(server.ctx, {
        email: `${caller}@example.com`,
        nickname: caller,
      });
      users.set(caller, user);
      tokens.set(
        caller,
        (await startSession(server.ctx, user, { identityProvider: false })).AccessToken,
      );
    }
    const get = (c: Caller) => users.get(c) as UserRow;
    team = await createTeam(server.ctx, {
      owner: get('owner'),
      name: 'Photo club',
      alias: 'photo-club',
    });
    // The foreigner is an active member elsewhere: this team's ids must still answer 404.
    await createTeam(server.ctx, {
      owner: get('foreigner'),
      name: 'Other club',
      alias: 'other-club',
    });
    await addMember(team.id, get('admin'), 'admin', 'active');
    await addMember(team.id, get('uploader'), 'uploader', 'active');
    await addMember(team.id, get('viewer'), 'viewer', 'active');
    await addMember(team.id, get('disabled'), 'admin', 'disabled');
    // Room for aliases, so the matrix tests the policy rather than the quota.
    await server.ctx.db
      .updateTable('teams')
      .set({ plan: 'premium' })
      .where('id', '=', team.id)
      .execute();
  });
  afterAll(() => server.close());

  const call = (caller: Caller, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers:
        caller === 'anonymous' ? {} : { authorization: `Bearer ${tokens.get(caller) ?? ''}` },
    });

  async function snapshot() {
    const [teams, aliases, members] = await Promise.all([
      server.ctx.db.selectFrom('teams').selectAll().orderBy('id').execute(),
      server.ctx.db.selectFrom('team_aliases').selectAll().orderBy('alias').execute(),
      server.ctx.db
        .selectFrom('team_members')
        .selectAll()
        .orderBy('team_id')
        .orderBy('user_id')
        .execute(),
    ]);
    return JSON.stringify({ teams, aliases, members });
  }

  /** The expected status of a team endpoint for each caller, from the contracts matrix. */
  function expected(caller: Caller, permission: Permission, ok: number): number {
    if (caller === 'anonymous') return 401;
    if (caller === 'disabled' || caller === 'outsider' || caller === 'foreigner') return 404;
    return hasPermission(caller, permission) ? ok : 403;
  }

  describe('authorisation matrix', () => {
    const endpoints = [
      {
        name: 'GET /teams/{id}',
        permission: 'readTeam' as const,
        ok: 200,
        run: (c: Caller) => call(c, 'GET', `/teams/${team.id}`),
      },
      {
        name: 'GET /teams/{alias}',
        permission: 'readTeam' as const,
        ok: 200,
        run: (c: Caller) => call(c, 'GET', '/teams/photo-club'),
      },
      {
        name: 'PATCH /teams/{id}',
        permission: 'updateTeam' as const,
        ok: 200,
        run: (c: Caller) =>
          call(c, 'PATCH', `/teams/${team.id}`, [
            { op: 'replace', path: '/description', value: `by ${c}` },
          ]),
      },
      {
        name: 'POST /teams/{id}/aliases',
        permission: 'createTeamAlias' as const,
        ok: 201,
        run: (c: Caller) =>
          call(c, 'POST', `/teams/${team.id}/aliases`, { alias: `alias-${c}`, star: true }),
      },
    ];
    for (const endpoint of endpoints) {
      for (const caller of CALLERS) {
        const status = expected(caller, endpoint.permission, endpoint.ok);
        it(`${endpoint.name} as ${caller} → ${status}`, async () => {
          const before = await snapshot();
          const res = await endpoint.run(caller);
          expect(res.statusCode).toBe(status);
          if (res.statusCode >= 400) expect(await snapshot()).toBe(before);
        });
      }
    }
  });
});
