import type { MemberRole } from '@raccolta/contracts';
import { createCode } from '../../src/auth/one-time-codes.js';
import { startSession } from '../../src/auth/sessions.js';
import type { AppContext } from '../../src/context.js';
import { insertUser, type UserRow } from '../../src/users/users.repository.js';
import { addMember, createTeam, createUser } from '../helpers/factories.js';

export type Caller = 'anonymous' | MemberRole | 'disabled' | 'outsider' | 'foreigner';

/** Everyone the authorisation matrix calls as: the four roles, then those who must get 404. */
export const CALLERS: Caller[] = [
  'anonymous',
  'owner',
  'admin',
  'uploader',
  'viewer',
  'disabled',
  'outsider',
  'foreigner',
];

export interface World {
  team: { id: string; alias: string | null };
  otherTeam: { id: string; alias: string | null };
  users: Record<Exclude<Caller, 'anonymous'>, UserRow>;
  /** An active standard uploader, the usual object of an action. */
  target: UserRow;
  /** A disabled uploader, to reactivate. */
  disabledTarget: UserRow;
  /** Invited by e-mail; the invitation made the account (no password yet). */
  invitee: UserRow;
  inviteToken: string;
  internal: UserRow;
  /** A member of the other team only. */
  stranger: UserRow;
}

let worlds = 0;

/**
 * A fresh team with a member of every role, a disabled admin, an outsider (signed in, in no
 * team), a foreigner (owner of another team) and the members actions are taken on.
 */
export async function buildWorld(ctx: AppContext): Promise<World> {
  const n = ++worlds;
  const user = (name: string, extra: { signUpMethod?: string } = {}) =>
    createUser(ctx, {
      email: `${name}.${n}@example.com`,
      nickname: `${name} ${String.fromCharCode(97 + (n % 26))}`,
      password: null,
      ...extra,
    });
  const users = {
    owner: await user('owner'),
    admin: await user('admin'),
    uploader: await user('uploader'),
    viewer: await user('viewer'),
    disabled: await user('disabled'),
    outsider: await user('outsider'),
    foreigner: await user('foreigner'),
  };
  const team = await createTeam(ctx, { owner: users.owner, name: `Team ${n}`, alias: `team-${n}` });
  const otherTeam = await createTeam(ctx, {
    owner: users.foreigner,
    name: `Other ${n}`,
    alias: `other-${n}`,
  });
  await addMember(ctx, { teamId: team.id, user: users.admin, role: 'admin' });
  await addMember(ctx, { teamId: team.id, user: users.uploader, role: 'uploader' });
  await addMember(ctx, { teamId: team.id, user: users.viewer, role: 'viewer' });
  await addMember(ctx, {
    teamId: team.id,
    user: users.disabled,
    role: 'admin',
    status: 'disabled',
  });
  const target = await user('target');
  await addMember(ctx, { teamId: team.id, user: target, role: 'uploader' });
  const disabledTarget = await user('off');
  await addMember(ctx, {
    teamId: team.id,
    user: disabledTarget,
    role: 'uploader',
    status: 'disabled',
  });
  const invitee = await user('invitee', { signUpMethod: 'invitation' });
  await addMember(ctx, { teamId: team.id, user: invitee, role: 'viewer', status: 'invited' });
  const inviteToken = await createCode(
    ctx.db,
    {
      userId: invitee.id,
      purpose: 'invitation',
      ttlMs: 7 * 24 * 60 * 60_000,
      data: { teamId: team.id },
    },
    ctx.clock(),
  );
  // Straight rows rather than createInternalMember: no password hash, so a world costs little.
  const internal = await insertUser(
    ctx.db,
    {
      email: null,
      emailVerified: false,
      username: `inside${n}`,
      kind: 'internal',
      teamId: team.id,
      nickname: `inside${n}`,
      passwordHash: null,
      passwordChangeRequired: true,
      scope: 'team',
      locale: 'en',
      signUpMethod: 'internal',
    },
    ctx.clock(),
  );
  await addMember(ctx, { teamId: team.id, user: internal, role: 'uploader' });
  const stranger = await user('stranger');
  await addMember(ctx, { teamId: otherTeam.id, user: stranger, role: 'uploader' });
  return {
    team,
    otherTeam,
    users,
    target,
    disabledTarget,
    invitee,
    inviteToken,
    internal,
    stranger,
  };
}

export async function accessToken(ctx: AppContext, user: UserRow): Promise<string> {
  return (await startSession(ctx, user, { identityProvider: false })).AccessToken;
}

/** Every row a member or invitation call could write, to prove a refusal wrote nothing. */
export async function snapshot(ctx: AppContext): Promise<string> {
  const db = ctx.db;
  const [members, users, codes, mails, sessions] = await Promise.all([
    db.selectFrom('team_members').selectAll().orderBy('team_id').orderBy('user_id').execute(),
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('one_time_codes').selectAll().orderBy('id').execute(),
    // The worker changes the state of jobs other calls enqueued; a new job is what would count.
    db
      .selectFrom('jobs')
      .select(['id', 'queue', 'payload'])
      .where('queue', '=', 'mail.send')
      .orderBy('id')
      .execute(),
    db.selectFrom('refresh_tokens').select(['id', 'revoked_at']).orderBy('id').execute(),
  ]);
  return JSON.stringify({ members, users, codes, mails, sessions });
}
