import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { memberRefs, memberRefsByTeam } from '../../src/members/member-refs.js';
import type { UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('member references (who created, uploaded or is tagged)', () => {
  let server: TestServer;
  let owner: UserRow;
  let named: UserRow;
  let unnamed: UserRow;
  let bare: UserRow;
  let left: UserRow;
  let stranger: UserRow;
  let teamId: string;
  let otherTeamId: string;

  beforeAll(async () => {
    server = await startTestServer();
    const { ctx } = server;
    owner = await createUser(ctx, { email: 'owner@example.com', nickname: 'Owner' });
    named = await createUser(ctx, { email: 'named@example.com', nickname: 'Profile name' });
    unnamed = await createUser(ctx, { email: 'unnamed@example.com', nickname: 'Own name' });
    bare = await createUser(ctx, { email: 'bare.user@example.com' });
    left = await createUser(ctx, { email: 'left@example.com', nickname: 'Gone' });
    stranger = await createUser(ctx, { email: 'stranger@example.com', nickname: 'Stranger' });
    teamId = (await createTeam(ctx, { owner })).id;
    otherTeamId = (await createTeam(ctx, { owner: stranger })).id;
    await addMember(ctx, { teamId, user: named, role: 'uploader', nickname: 'Team name' });
    await addMember(ctx, { teamId, user: unnamed, role: 'uploader', nickname: 'x' });
    await addMember(ctx, { teamId, user: bare, role: 'viewer', nickname: 'y' });
    await addMember(ctx, {
      teamId,
      user: left,
      role: 'uploader',
      status: 'left',
      nickname: 'Left',
    });
    await addMember(ctx, {
      teamId: otherTeamId,
      user: named,
      role: 'viewer',
      nickname: 'Elsewhere',
    });
    // No team nickname: the profile's nickname, else the username.
    await ctx.db
      .updateTable('team_members')
      .set({ nickname: null, nickname_key: null })
      .where('team_id', '=', teamId)
      .where('user_id', 'in', [unnamed.id, bare.id])
      .execute();
    await ctx.db.updateTable('users').set({ nickname: null }).where('id', '=', bare.id).execute();
    await ctx.db
      .updateTable('users')
      .set({ avatar_url: 'https://example.com/stranger.png' })
      .where('id', '=', stranger.id)
      .execute();
  });
  afterAll(() => server.close());

  it('names members as the members list does, keeps the name of one who left, and no one else', async () => {
    const unknown = newId();
    const refs = await memberRefs(server.ctx.db, teamId, [
      named.id,
      unnamed.id,
      bare.id,
      left.id,
      stranger.id,
      unknown,
      named.id,
    ]);
    expect(Object.fromEntries([...refs].map(([id, ref]) => [id, ref]))).toEqual({
      [named.id]: { userId: named.id, nickname: 'Team name', avatarUrl: null },
      [unnamed.id]: { userId: unnamed.id, nickname: 'Own name', avatarUrl: null },
      [bare.id]: { userId: bare.id, nickname: 'bare.user', avatarUrl: null },
      [left.id]: { userId: left.id, nickname: 'Left', avatarUrl: null },
      // A user with no membership row in the team: no name, the avatar of the account.
      [stranger.id]: {
        userId: stranger.id,
        nickname: null,
        avatarUrl: 'https://example.com/stranger.png',
      },
      [unknown]: { userId: unknown, nickname: null, avatarUrl: null },
    });
    expect((await memberRefs(server.ctx.db, teamId, [])).size).toBe(0);
  });

  it('names the same person by each team’s name across teams', async () => {
    const refOf = await memberRefsByTeam(server.ctx.db, [
      { teamId, userId: named.id },
      { teamId: otherTeamId, userId: named.id },
      { teamId: otherTeamId, userId: stranger.id },
    ]);
    expect(refOf(teamId, named.id).nickname).toBe('Team name');
    expect(refOf(otherTeamId, named.id).nickname).toBe('Elsewhere');
    expect(refOf(otherTeamId, stranger.id).nickname).toBe('Stranger');
    expect(refOf(otherTeamId, owner.id)).toEqual({
      userId: owner.id,
      nickname: null,
      avatarUrl: null,
    });
  });
});
