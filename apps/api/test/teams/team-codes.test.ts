import { credentialsSchema } from '@raccolta/contracts';
import { Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/create-db.js';
import { newId } from '../../src/db/ids.js';
import { migrations } from '../../src/db/migrations/index.js';
import { TEAM_CODE_ALPHABET, TEAM_CODE_LENGTH } from '../../src/teams/team-code.js';
import { insertUser, type UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { createTestDatabase } from '../helpers/test-db.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { accessToken } from '../members/world.js';

const CODE = new RegExp(`^[${TEAM_CODE_ALPHABET}]{${TEAM_CODE_LENGTH}}$`);

describe('team codes', () => {
  let server: TestServer;
  let owner: UserRow;
  let team: { id: string; alias: string | null };

  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
    owner = await createUser(server.ctx, { email: 'nadia@example.com', nickname: 'Nadia' });
    team = await createTeam(server.ctx, { owner, name: 'Vigna', alias: 'vigna' });
  });
  afterAll(() => server.close());

  const call = async (method: 'GET' | 'POST', url: string, payload?: object, as?: UserRow) =>
    server.app.inject({
      method,
      url: `/api${url}`,
      ...(payload ? { payload } : {}),
      headers: as ? { authorization: `Bearer ${await accessToken(server.ctx, as)}` } : {},
    });

  /** Creates an internal contributor and chooses their own password, as the first sign-in does. */
  async function contributor(username: string) {
    const res = await call(
      'POST',
      `/teams/${team.id}/members`,
      { username, role: 'uploader', locale: 'en' },
      owner,
    );
    expect(res.statusCode, res.body).toBe(201);
    const credentials = credentialsSchema.parse(res.json<{ credentials: unknown }>().credentials);
    const first = await call('POST', '/auth/signin', {
      username,
      password: credentials.password,
      team: credentials.teamCode,
    });
    expect(first.json()).toMatchObject({ errorCode: 'newPasswordRequired' });
    const session = first.json<{ data: { session: string } }>().data.session;
    const chosen = await call('POST', '/auth/new-password', {
      newPassword: 'Own-passw0rd',
      session,
      teamId: team.id,
      username,
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return credentials;
  }

  it('gives the credentials a short code that signs in in any case, beside the id and alias', async () => {
    const credentials = await contributor('lina');
    expect(credentials.teamCode).toMatch(CODE);
    const stored = await server.ctx.db
      .selectFrom('teams')
      .select('code')
      .where('id', '=', team.id)
      .executeTakeFirstOrThrow();
    expect(stored.code).toBe(credentials.teamCode);

    for (const ref of [
      credentials.teamCode,
      credentials.teamCode.toLowerCase(),
      ` ${credentials.teamCode.slice(0, 3).toLowerCase()}${credentials.teamCode.slice(3)} `,
      team.id,
      team.id.toUpperCase(),
      'vigna',
    ]) {
      const res = await call('POST', '/auth/signin', {
        username: 'lina',
        password: 'Own-passw0rd',
        team: ref,
      });
      expect(res.statusCode, `${ref}: ${res.body}`).toBe(200);
    }
    // A member's pages take the code as they take the alias.
    const page = await call(
      'GET',
      `/teams/${credentials.teamCode.toLowerCase()}`,
      undefined,
      owner,
    );
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ teamId: team.id });

    // A code with one character changed is no team.
    const other = credentials.teamCode.startsWith('2') ? '3' : '2';
    const wrong = await call('POST', '/auth/signin', {
      username: 'lina',
      password: 'Own-passw0rd',
      team: `${other}${credentials.teamCode.slice(1)}`,
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ errorCode: 'teamNotFound' });
  });

  it('gives a team created through the API a code of its own, and keeps the code on a new password', async () => {
    const created = await call('POST', '/teams', { name: 'Frantoio', mode: 'controlled' }, owner);
    expect(created.statusCode, created.body).toBe(201);
    const { teamId } = created.json<{ teamId: string }>();
    const rows = await server.ctx.db
      .selectFrom('teams')
      .select(['id', 'code'])
      .where('id', 'in', [teamId, team.id])
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.code).toMatch(CODE);
    expect(new Set(rows.map((row) => row.code)).size).toBe(2);

    const member = await call(
      'POST',
      `/teams/${teamId}/members`,
      { username: 'ugo', role: 'uploader', locale: 'it' },
      owner,
    );
    const first = credentialsSchema.parse(member.json<{ credentials: unknown }>().credentials);
    const userId = member.json<{ member: { userId: string } }>().member.userId;
    const reset = await call('POST', `/teams/${teamId}/members/${userId}/new-password`, {}, owner);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(credentialsSchema.parse(reset.json()).teamCode).toBe(first.teamCode);
    expect(first.teamCode).toBe(rows.find((row) => row.id === teamId)?.code);
  });

  it('refuses an alias that spells another team code, and changes nothing', async () => {
    const other = await createUser(server.ctx, { email: 'ettore@example.com', nickname: 'Ettore' });
    const theirs = await createTeam(server.ctx, { owner: other, name: 'Altra' });
    await addMember(server.ctx, { teamId: theirs.id, user: owner, role: 'viewer' });
    const { code } = await server.ctx.db
      .selectFrom('teams')
      .select('code')
      .where('id', '=', team.id)
      .executeTakeFirstOrThrow();
    const res = await call(
      'POST',
      `/teams/${theirs.id}/aliases`,
      { alias: (code ?? '').toLowerCase(), star: true },
      other,
    );
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ errorCode: 'alreadyExists', data: { duplicate: 'alias' } });
    const aliases = await server.ctx.db
      .selectFrom('team_aliases')
      .select('alias')
      .where('team_id', '=', theirs.id)
      .execute();
    expect(aliases).toEqual([]);
  });
});

describe('migration 0013-team-codes', () => {
  it('gives every existing team a distinct code that no alias spells', async () => {
    const database = await createTestDatabase();
    const db = createDb(database.config);
    try {
      const names = Object.keys(migrations);
      const before = names.slice(0, names.indexOf('0013-team-codes'));
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve(migrations) },
      });
      const upTo = await migrator.migrateTo(before.at(-1) ?? '');
      expect(upTo.error).toBeUndefined();

      const now = Date.now();
      const { id: ownerId } = await insertUser(
        db,
        {
          email: 'old@example.com',
          emailVerified: true,
          username: 'old',
          kind: 'standard',
          teamId: null,
          nickname: 'Old',
          passwordHash: null,
          scope: 'global',
          locale: 'en',
          signUpMethod: 'email_password',
        },
        now,
      );
      const ids = [newId(), newId(), newId()];
      for (const id of ids) {
        await db
          .insertInto('teams')
          .values({
            id,
            name: 'Old team',
            description: null,
            mode: 'collaborative',
            owner_id: ownerId,
            plan: 'free',
            star_alias: null,
            logo_url: null,
            created_at: now,
            created_by: ownerId,
            updated_at: now,
            updated_by: ownerId,
          } as never)
          .execute();
      }

      const latest = await migrator.migrateToLatest();
      expect(latest.error).toBeUndefined();
      const rows = await db.selectFrom('teams').select('code').execute();
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(row.code).toMatch(CODE);
      expect(new Set(rows.map((row) => row.code)).size).toBe(3);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
