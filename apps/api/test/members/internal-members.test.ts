import { credentialsSchema, memberSchema, passwordSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePassword } from '../../src/members/internal-members.service.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from './world.js';

describe('internal members', () => {
  let server: TestServer;
  let owner: UserRow;
  let admin: UserRow;
  let team: { id: string; alias: string | null };

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
    owner = await createUser(server.ctx, { email: 'irene@example.com', nickname: 'Irene' });
    admin = await createUser(server.ctx, { email: 'aldo@example.com', nickname: 'Aldo' });
    team = await createTeam(server.ctx, { owner, name: 'Cantiere', alias: 'cantiere' });
    await addMember(server.ctx, { teamId: team.id, user: admin, role: 'admin' });
  });
  afterAll(() => server.close());

  const call = async (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    as: UserRow | string | null = admin,
  ) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      ...(payload ? { payload } : {}),
      headers:
        as === null
          ? {}
          : {
              authorization: `Bearer ${typeof as === 'string' ? as : await accessToken(server.ctx, as)}`,
            },
    });
  const create = (username: string) =>
    call('POST', `/teams/${team.id}/members`, { username, role: 'uploader', locale: 'it' });

  it('generates passwords that meet the policy', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(password).toHaveLength(20);
      expect(passwordSchema.safeParse(password).success, password).toBe(true);
      seen.add(password);
    }
    expect(seen.size).toBe(200);
  });

  it('creates an internal contributor whose credentials sign in with the team alias', async () => {
    const res = await create('Mario.Rossi');
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<{ member: unknown; credentials: unknown }>();
    const member = memberSchema.parse(body.member);
    const credentials = credentialsSchema.parse(body.credentials);
    expect(member).toMatchObject({
      teamId: team.id,
      nickname: 'Mario.Rossi',
      role: 'uploader',
      status: 'active',
      type: 'internal',
      email: null,
      username: 'mario.rossi',
      createdBy: admin.id,
      inviteExpiresAt: null,
    });
    expect(member.joinedAt).not.toBeNull();
    expect(credentials).toMatchObject({
      teamId: team.id,
      teamAlias: 'cantiere',
      username: 'mario.rossi',
    });
    expect(credentials.password.length).toBeGreaterThanOrEqual(16);

    const account = await server.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', member.userId)
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({
      kind: 'internal',
      team_id: team.id,
      email: null,
      password_change_required: 1,
      scope: 'team',
      locale: 'it',
      sign_up_method: 'internal',
    });
    expect(account.password_hash).not.toContain(credentials.password);

    // First sign-in: the generated password must be replaced.
    const signin = await call(
      'POST',
      '/auth/signin',
      { username: credentials.username, password: credentials.password, team: 'cantiere' },
      null,
    );
    expect(signin.statusCode).toBe(403);
    const data = signin.json<{
      errorCode: string;
      data: { session: string; teamId: string; username: string };
    }>();
    expect(data).toMatchObject({
      errorCode: 'newPasswordRequired',
      data: { teamId: team.id, username: 'mario.rossi' },
    });
    const chosen = await call(
      'POST',
      '/auth/new-password',
      {
        newPassword: 'Own-passw0rd',
        session: data.data.session,
        teamId: team.id,
        username: 'mario.rossi',
      },
      null,
    );
    expect(chosen.statusCode, chosen.body).toBe(200);
    const session = chosen.json<{ result: { AccessToken: string } }>().result.AccessToken;
    expect(
      (await call('GET', `/teams/cantiere/members/${member.userId}`, undefined, session))
        .statusCode,
    ).toBe(200);

    // The manager issues a new password: sessions end, the old password stops working.
    const reset = await call('POST', `/teams/${team.id}/members/${member.userId}/new-password`, {});
    expect(reset.statusCode, reset.body).toBe(200);
    const renewed = credentialsSchema.parse(reset.json());
    expect(renewed).toMatchObject({
      teamId: team.id,
      teamAlias: 'cantiere',
      username: 'mario.rossi',
    });
    expect(renewed.password).not.toBe(credentials.password);
    expect((await call('GET', '/users/@me', undefined, session)).statusCode).toBe(401);
    const old = await call(
      'POST',
      '/auth/signin',
      { username: 'mario.rossi', password: 'Own-passw0rd', team: team.id },
      null,
    );
    expect(old.json()).toMatchObject({ errorCode: 'notAuthorized' });
    const fresh = await call(
      'POST',
      '/auth/signin',
      { username: 'mario.rossi', password: renewed.password, team: team.id },
      null,
    );
    expect(fresh.json()).toMatchObject({ statusCode: 403, errorCode: 'newPasswordRequired' });
  });

  it('refuses short and taken usernames, and another role', async () => {
    const before = await server.ctx.db.selectFrom('users').select('id').execute();
    // One rule with the form (contracts, minimum 3): the body schema refuses it.
    expect((await create('ab')).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidInput',
    });
    expect((await create('a')).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidInput',
    });
    expect((await create('bad name')).json()).toMatchObject({
      statusCode: 400,
      errorCode: 'invalidInput',
    });
    await create('giulia');
    const after = (await server.ctx.db.selectFrom('users').select('id').execute()).length;
    expect((await create('GIULIA')).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'alreadyExists',
      data: { duplicate: 'username' },
    });
    const admin2 = await call('POST', `/teams/${team.id}/members`, {
      username: 'boss',
      role: 'admin',
      locale: 'en',
    });
    expect(admin2.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidInput' });
    // A member already called "Irene" (the owner) keeps the name.
    expect((await create('irene')).json()).toMatchObject({
      statusCode: 409,
      errorCode: 'nicknameAlreadyExists',
    });
    expect((await server.ctx.db.selectFrom('users').select('id').execute()).length).toBe(after);
    expect(after).toBe(before.length + 1);

    // Usernames are unique within a team only.
    const other = await createTeam(server.ctx, { owner, name: 'Altro', alias: 'altro-cantiere' });
    const elsewhere = await call(
      'POST',
      `/teams/${other.id}/members`,
      { username: 'giulia', role: 'uploader', locale: 'en' },
      owner,
    );
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json()).toMatchObject({
      credentials: { teamAlias: 'altro-cantiere', username: 'giulia' },
    });
  });

  it('gives new passwords to internal members only', async () => {
    const standard = await createUser(server.ctx, {
      email: 'std@example.com',
      nickname: 'Stefano',
    });
    await addMember(server.ctx, { teamId: team.id, user: standard, role: 'uploader' });
    const res = await call('POST', `/teams/${team.id}/members/${standard.id}/new-password`, {});
    expect(res.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidTeamMember' });
    const self = await call('POST', `/teams/${team.id}/members/${admin.id}/new-password`, {});
    expect(self.json()).toMatchObject({ statusCode: 400, errorCode: 'invalidTeamMember' });
  });

  it("deletes an internal member's account with the membership", async () => {
    const res = await create('temp.worker');
    const { member, credentials } = res.json<{
      member: { userId: string };
      credentials: { password: string };
    }>();
    const removed = await server.app.inject({
      method: 'DELETE',
      url: `/api/teams/${team.id}/members/${member.userId}`,
      headers: { authorization: `Bearer ${await accessToken(server.ctx, admin)}` },
    });
    expect(removed.statusCode).toBe(204);
    expect(
      await server.ctx.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', member.userId)
        .executeTakeFirst(),
    ).toBeUndefined();
    const signin = await call(
      'POST',
      '/auth/signin',
      { username: 'temp.worker', password: credentials.password, team: 'cantiere' },
      null,
    );
    expect(signin.json()).toMatchObject({ errorCode: 'notAuthorized' });
  });
});
