import { randomInt } from 'node:crypto';
import {
  hasPermission,
  INTERNAL_MEMBER_ROLE,
  type Credentials,
  type DuplicateKind,
  type Locale,
  type Member,
} from '@raccolta/contracts';
import { invalidateCodes } from '../auth/one-time-codes.js';
import { hashPassword } from '../auth/passwords.js';
import { revokeAllSessions } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { AppError } from '../errors/app-error.js';
import { requireAccess } from '../access/access.js';
import { can, memberActor } from '../access/rules.js';
import { findUserByUsername, insertUser, type UserRow } from '../users/users.repository.js';
import { memberPolicy, type MemberActor, type MemberTarget } from './members.policy.js';
import {
  findMember,
  insertMember,
  isNicknameTaken,
  isNicknameViolation,
} from './members.repository.js';
import { getPresentedMember } from './members.service.js';

// Characters a manager can read out or copy by hand without confusion (no 0/O, 1/l/I).
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '-_.!#%+=?@';
const PASSWORD_LENGTH = 20;

function pick(chars: string): string {
  return chars.charAt(randomInt(chars.length));
}

/**
 * A generated password that meets the §5 policy (one of each class guaranteed, the rest from all
 * of them, shuffled): about 120 bits, shown once and replaced at the first sign-in.
 */
export function generatePassword(length = PASSWORD_LENGTH): string {
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] ?? '', chars[i] ?? ''];
  }
  return chars.join('');
}

const INTERNAL_USERNAME_INDEX = {
  name: 'users_internal_username_idx',
  sqliteColumns: 'users.team_id, users.username',
};

/**
 * An internal contributor: an account of this team only, signing in with username, team and a
 * generated password it must replace at the first sign-in. The password is answered once.
 */
export async function createInternalMember(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  input: { username: string; locale: Locale },
): Promise<{ member: Member; credentials: Credentials }> {
  const displayed = input.username.trim();
  const username = displayed.toLowerCase();
  // Checked before hashing, so a refused caller does not cost an argon2 run.
  await requireAccess(ctx, user, { team: teamRef }, can.addMember);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const now = ctx.clock();
  try {
    const { team, userId } = await ctx.db.transaction().execute(async (trx) => {
      const access = await requireAccess(ctx, user, { team: teamRef }, can.addMember, {
        db: trx,
        lock: true,
      });
      if (await findUserByUsername(trx, username, access.team.id)) {
        throw new AppError('alreadyExists', {
          data: { duplicate: 'username' satisfies DuplicateKind },
        });
      }
      if (await isNicknameTaken(trx, access.team.id, displayed)) {
        throw new AppError('nicknameAlreadyExists');
      }
      const account = await insertUser(
        trx,
        {
          email: null,
          emailVerified: false,
          username,
          kind: 'internal',
          teamId: access.team.id,
          nickname: displayed,
          passwordHash,
          passwordChangeRequired: true,
          scope: 'team',
          locale: input.locale,
          signUpMethod: 'internal',
        },
        now,
      );
      await insertMember(trx, {
        team_id: access.team.id,
        user_id: account.id,
        role: INTERNAL_MEMBER_ROLE,
        status: 'active',
        type: 'internal',
        nickname: displayed,
        email: null,
        created_at: now,
        created_by: user.id,
        joined_at: now,
        invite_expires_at: null,
        updated_at: now,
      });
      return { team: access.team, userId: account.id };
    });
    return {
      member: await getPresentedMember(ctx.db, team.id, userId),
      credentials: {
        teamId: team.id,
        teamAlias: team.star_alias,
        teamCode: team.code ?? team.id,
        username,
        password,
      },
    };
  } catch (err) {
    if (isUniqueViolation(err, INTERNAL_USERNAME_INDEX)) {
      throw new AppError('alreadyExists', {
        cause: err,
        data: { duplicate: 'username' satisfies DuplicateKind },
      });
    }
    if (isNicknameViolation(err)) throw new AppError('nicknameAlreadyExists', { cause: err });
    throw err;
  }
}

/**
 * A new generated password for an internal member who lost theirs: every session of that member
 * ends, and the new password must be replaced at the next sign-in.
 */
export async function resetInternalMemberPassword(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  memberId: string,
): Promise<Credentials> {
  const checkPolicy = (actor: MemberActor, target: MemberTarget): void => {
    if (memberPolicy.resetPassword(actor, target)) return;
    // A manager asking for a standard member's password gets the more telling answer.
    const manager = hasPermission(actor.role, 'updateAnyMember');
    throw new AppError(manager ? 'invalidTeamMember' : 'forbidden');
  };
  // Checked before hashing too, so a refused caller does not cost an argon2 run.
  const access = await requireAccess(ctx, user, { team: teamRef }, can.listMembers);
  const current = await findMember(ctx.db, access.team.id, memberId);
  if (!current) throw new AppError('notFound');
  checkPolicy(memberActor(access), current);
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const now = ctx.clock();
  return ctx.db.transaction().execute(async (trx) => {
    const locked = await requireAccess(
      ctx,
      user,
      { team: teamRef, member: memberId },
      can.anyMember,
      { db: trx, lock: true },
    );
    const { team, target } = locked;
    checkPolicy(memberActor(locked), target);
    const account = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_change_required: 1, updated_at: now })
      .where('id', '=', memberId)
      .where('kind', '=', 'internal')
      .where('team_id', '=', team.id)
      .returning('username')
      .executeTakeFirst();
    if (!account) throw new AppError('invalidTeamMember');
    await revokeAllSessions(trx, memberId, now);
    await invalidateCodes(trx, memberId, 'new_password', now);
    return {
      teamId: team.id,
      teamAlias: team.star_alias,
      teamCode: team.code ?? team.id,
      username: account.username,
      password,
    };
  });
}
