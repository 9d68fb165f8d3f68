import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTeamAccess } from '../../src/teams/team-access.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('loadTeamAccess', () => {
  let server: TestServer;
  let owner: UserRow;
  let team: { id: string; alias: string | null };

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createUser(server.ctx, { email: 'access-owner@example.com' });
    team = await createTeam(server.ctx, { owner, alias: 'access-team' });
  });
  afterAll(() => server.close());

  const rowsOf = async (teamId: string, userId: string) => ({
    team: await server.ctx.db
      .selectFrom('teams')
      .selectAll()
      .where('id', '=', teamId)
      .executeTakeFirstOrThrow(),
    member: await server.ctx.db
      .selectFrom('team_members')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  });

  it('gives the team and the whole membership row, by id or alias, in any case', async () => {
    const expected = await rowsOf(team.id, owner.id);
    for (const ref of [team.id, team.id.toUpperCase(), 'access-team', ' Access-Team ']) {
      const access = await loadTeamAccess(server.ctx, owner, ref);
      expect({ ...access.team }).toEqual({ ...expected.team });
      expect({ ...access.member }).toEqual({ ...expected.member });
      expect(access.role).toBe('owner');
      expect(access.actor).toBe(owner);
    }
  });

  it('is notFound for a team that does not exist and for anyone but an active member', async () => {
    await expect(
      loadTeamAccess(server.ctx, owner, '01a2177f-0000-7000-8000-000000000000'),
    ).rejects.toMatchObject({ errorCode: 'notFound' });
    await expect(loadTeamAccess(server.ctx, owner, 'no-such-alias')).rejects.toMatchObject({
      errorCode: 'notFound',
    });
    const outsider = await createUser(server.ctx, { email: 'access-outsider@example.com' });
    await expect(loadTeamAccess(server.ctx, outsider, team.id)).rejects.toMatchObject({
      errorCode: 'notFound',
    });
    for (const [i, status] of (['invited', 'disabled', 'left', 'banned'] as const).entries()) {
      const user = await createUser(server.ctx, { email: `access-${status}@example.com` });
      await addMember(server.ctx, {
        teamId: team.id,
        user,
        role: 'uploader',
        status,
        nickname: `Access ${i}`,
      });
      await expect(loadTeamAccess(server.ctx, user, team.id)).rejects.toMatchObject({
        errorCode: 'notFound',
      });
    }
    const viewer = await createUser(server.ctx, { email: 'access-viewer@example.com' });
    await addMember(server.ctx, { teamId: team.id, user: viewer, role: 'viewer', nickname: 'V' });
    const access = await loadTeamAccess(server.ctx, viewer, 'access-team');
    expect(access.role).toBe('viewer');
    expect({ ...access.member }).toEqual({ ...(await rowsOf(team.id, viewer.id)).member });
  });
});
