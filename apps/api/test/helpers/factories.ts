import { hashPassword } from '../../src/auth/passwords.js';
import type { AppContext } from '../../src/context.js';
import type { MemberRole, MemberStatus } from '../../src/db/database.js';
import { newId } from '../../src/db/ids.js';
import { generateTeamCode } from '../../src/teams/team-code.js';
import { nicknameKey } from '../../src/members/nickname.js';
import { insertUser, type UserRow } from '../../src/users/users.repository.js';

/** The password of users made by createUser unless a test gives another. */
export const TEST_PASSWORD = 'Sup3r-secret';

/** Test data written straight to the database, for the state a test starts from. */
export async function createUser(
  ctx: AppContext,
  input: {
    email: string;
    password?: string | null;
    verified?: boolean;
    signUpMethod?: string;
    locale?: string;
    nickname?: string;
  },
): Promise<UserRow> {
  return insertUser(
    ctx.db,
    {
      email: input.email,
      emailVerified: input.verified ?? true,
      username: input.email.split('@')[0]?.replace(/[^a-z0-9.]/gi, '.') ?? 'user',
      kind: 'standard',
      teamId: null,
      nickname: input.nickname ?? 'Test User',
      passwordHash:
        input.password === null ? null : await hashPassword(input.password ?? TEST_PASSWORD),
      scope: 'global',
      locale: input.locale ?? 'en',
      signUpMethod: input.signUpMethod ?? 'email_password',
    },
    ctx.clock(),
  );
}

/** A team with an owner and an alias. */
export async function createTeam(
  ctx: AppContext,
  input: { owner: UserRow; name?: string; alias?: string },
): Promise<{ id: string; alias: string | null }> {
  const now = ctx.clock();
  const id = newId();
  await ctx.db
    .insertInto('teams')
    .values({
      id,
      name: input.name ?? 'Test team',
      description: null,
      mode: 'collaborative',
      owner_id: input.owner.id,
      plan: 'free',
      star_alias: input.alias ?? null,
      logo_url: null,
      code: generateTeamCode(),
      created_at: now,
      created_by: input.owner.id,
      updated_at: now,
      updated_by: input.owner.id,
    })
    .execute();
  await ctx.db
    .insertInto('team_members')
    .values({
      team_id: id,
      user_id: input.owner.id,
      role: 'owner',
      status: 'active',
      type: 'standard',
      nickname: input.owner.nickname,
      email: input.owner.email,
      created_at: now,
      created_by: input.owner.id,
      joined_at: now,
      invite_expires_at: null,
      updated_at: now,
    })
    .execute();
  if (input.alias) {
    await ctx.db
      .insertInto('team_aliases')
      .values({ alias: input.alias, team_id: id, created_at: now, created_by: input.owner.id })
      .execute();
  }
  return { id, alias: input.alias ?? null };
}

/** An internal member (username + generated password, no e-mail) who must choose a password. */
export async function createInternalMember(
  ctx: AppContext,
  input: { teamId: string; username: string; password: string },
): Promise<UserRow> {
  const now = ctx.clock();
  const user = await insertUser(
    ctx.db,
    {
      email: null,
      emailVerified: false,
      username: input.username,
      kind: 'internal',
      teamId: input.teamId,
      nickname: input.username,
      passwordHash: await hashPassword(input.password),
      passwordChangeRequired: true,
      scope: 'team',
      locale: 'en',
      signUpMethod: 'internal',
    },
    now,
  );
  await ctx.db
    .insertInto('team_members')
    .values({
      team_id: input.teamId,
      user_id: user.id,
      role: 'uploader',
      status: 'active',
      type: 'internal',
      nickname: input.username,
      email: null,
      created_at: now,
      created_by: null,
      joined_at: now,
      invite_expires_at: null,
      updated_at: now,
    })
    .execute();
  return user;
}

/** A membership of an existing user, in any role and status (an invited one expires in a week). */
export async function addMember(
  ctx: AppContext,
  input: {
    teamId: string;
    user: UserRow;
    role: MemberRole;
    status?: MemberStatus;
    nickname?: string;
    createdAt?: number;
  },
): Promise<void> {
  const now = ctx.clock();
  const status = input.status ?? 'active';
  const nickname = input.nickname ?? input.user.nickname ?? input.user.username;
  await ctx.db
    .insertInto('team_members')
    .values({
      team_id: input.teamId,
      user_id: input.user.id,
      role: input.role,
      status,
      type: input.user.kind === 'internal' ? 'internal' : 'standard',
      nickname,
      nickname_key: nicknameKey(nickname),
      email: input.user.email,
      created_at: input.createdAt ?? now,
      created_by: null,
      joined_at: status === 'invited' ? null : now,
      invite_expires_at: status === 'invited' ? now + 7 * 24 * 60 * 60_000 : null,
      updated_at: now,
    })
    .execute();
}
