import {
  ASSIGNABLE_ROLES,
  displayName,
  type AssignableRole,
  type DuplicateKind,
  type InviteMemberRequest,
  type Member,
} from '@raccolta/contracts';
import { reserve } from '../db/rate-limits.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { AppError } from '../errors/app-error.js';
import { requireAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import {
  findMember,
  insertMember,
  isNicknameTaken,
  isNicknameViolation,
  updateMember,
  type MemberRow,
} from '../members/members.repository.js';
import { getPresentedMember } from '../members/members.service.js';
import {
  findUserByEmail,
  findUserById,
  insertStandardUser,
  type UserRow,
} from '../users/users.repository.js';
import { awaitMailAttempt, issueInvitation } from './invitation-mail.js';

/** Who the invitation mail says invited you: the inviter's name as the team knows them. */
export function inviterName(user: UserRow, member: MemberRow): string {
  return displayName({
    firstName: user.first_name,
    lastName: user.last_name,
    nickname: member.nickname ?? user.nickname,
    email: user.email,
    username: user.username,
  });
}

function isAssignable(role: string): role is AssignableRole {
  return (ASSIGNABLE_ROLES as readonly string[]).includes(role);
}

/** A membership that ended may begin again; any other existing one is a duplicate. */
const REINVITABLE: readonly MemberRow['status'][] = ['rejected', 'left'];

const UNIQUE_AS_DUPLICATE = [
  // Two invitations of the same new address at once: one account is made, the other waits.
  { name: 'users_email_idx', sqliteColumns: 'users.email' },
  { name: 'team_members_pk', sqliteColumns: 'team_members.team_id, team_members.user_id' },
];

/**
 * The mail job was given a moment to run: a refusal by the mail server is reported now, with the
 * member (who stays invited; the job keeps retrying and the invitation can be resent).
 */
async function answerAfterMail(
  ctx: AppContext,
  teamId: string,
  userId: string,
  jobId: string,
): Promise<Member> {
  const outcome = await awaitMailAttempt(ctx, jobId);
  const member = await getPresentedMember(ctx.db, teamId, userId);
  if (outcome === 'failed') throw new AppError('cannotSendInvitationEmail', { data: { member } });
  return member;
}

/**
 * Invites an e-mail address. With no account yet, one is made now (no password, e-mail not
 * verified, scope team) so the membership can point at it; accepting completes it.
 */
export async function inviteMember(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  input: InviteMemberRequest,
): Promise<Member> {
  const email = input.email.trim().toLowerCase();
  const nickname = input.nickname.trim();
  const now = ctx.clock();
  const expiresAt = now + ctx.config.teams.invitationTtlMs;
  try {
    const { teamId, userId, jobId } = await ctx.db.transaction().execute(async (trx) => {
      const { team, member: actorRow } = await requireAccess(
        ctx,
        user,
        { team: teamRef },
        can.addMember,
        { db: trx, lock: true },
      );
      let invitee = await findUserByEmail(trx, email);
      const existing = invitee && (await findMember(trx, team.id, invitee.id));
      if (existing && !REINVITABLE.includes(existing.status)) {
        const duplicate: DuplicateKind = invitee?.id === user.id ? 'self' : 'member';
        throw new AppError('alreadyExists', { data: { duplicate } });
      }
      if (await isNicknameTaken(trx, team.id, nickname)) {
        throw new AppError('nicknameAlreadyExists');
      }
      invitee ??= await insertStandardUser(
        trx,
        {
          email,
          emailVerified: false,
          nickname,
          passwordHash: null,
          scope: 'team',
          locale: input.locale,
          signUpMethod: 'invitation',
        },
        now,
      );
      // The address was signed up or invited by a concurrent request.
      if (!invitee) throw new AppError('alreadyExists');
      await reserveInvitation(ctx, trx, user.id, email, now);
      const membership = {
        role: input.role,
        status: 'invited' as const,
        type: 'standard' as const,
        nickname,
        email,
        created_at: now,
        created_by: user.id,
        joined_at: null,
        invite_expires_at: expiresAt,
        updated_at: now,
      };
      if (existing) await updateMember(trx, team.id, invitee.id, membership);
      else await insertMember(trx, { team_id: team.id, user_id: invitee.id, ...membership });
      const mailJob = await issueInvitation(
        ctx,
        trx,
        {
          team,
          userId: invitee.id,
          email,
          locale: input.locale,
          role: input.role,
          inviterName: inviterName(user, actorRow),
          expiresAt,
        },
        now,
      );
      return { teamId: team.id, userId: invitee.id, jobId: mailJob };
    });
    return await answerAfterMail(ctx, teamId, userId, jobId);
  } catch (err) {
    if (isNicknameViolation(err)) throw new AppError('nicknameAlreadyExists', { cause: err });
    if (UNIQUE_AS_DUPLICATE.some((index) => isUniqueViolation(err, index))) {
      throw new AppError('alreadyExists', {
        cause: err,
        data: { duplicate: 'member' satisfies DuplicateKind },
      });
    }
    throw err;
  }
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Counts one invitation mail against the inviter's and the recipient's daily limits (in the
 * database, so every process shares them; in the caller's transaction, so an invitation that
 * fails is not counted): tooManyRequests when either is used up.
 */
async function reserveInvitation(
  ctx: AppContext,
  trx: Db,
  inviterId: string,
  email: string,
  now: number,
): Promise<void> {
  const limits = ctx.config.teams.invitationLimits;
  const byInviter = await reserve(
    trx,
    `invite:by:${inviterId}`,
    limits.perInviterPerDay,
    DAY_MS,
    now,
  );
  const toRecipient =
    byInviter &&
    (await reserve(
      trx,
      `invite:to:${email.toLowerCase()}`,
      limits.perRecipientPerDay,
      DAY_MS,
      now,
    ));
  if (!toRecipient) {
    throw new AppError('tooManyRequests', {
      message: 'Too many invitations today; retry tomorrow',
    });
  }
}

/** A new link with a new expiry; the links sent before stop working. */
export async function resendInvitation(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  memberId: string,
): Promise<Member> {
  const now = ctx.clock();
  const expiresAt = now + ctx.config.teams.invitationTtlMs;
  const { teamId, jobId } = await ctx.db.transaction().execute(async (trx) => {
    const {
      team,
      member: actorRow,
      target,
    } = await requireAccess(ctx, user, { team: teamRef, member: memberId }, can.resendInvitation, {
      db: trx,
      lock: true,
    });
    const invitee = await findUserById(trx, memberId);
    const email = target.email ?? invitee?.email;
    if (!invitee || !email || !isAssignable(target.role)) throw new AppError('invalidTeamMember');
    await reserveInvitation(ctx, trx, user.id, email, now);
    await updateMember(trx, team.id, memberId, { invite_expires_at: expiresAt, updated_at: now });
    const mailJob = await issueInvitation(
      ctx,
      trx,
      {
        team,
        userId: memberId,
        email,
        locale: invitee.locale === 'it' ? 'it' : 'en',
        role: target.role,
        inviterName: inviterName(user, actorRow),
        expiresAt,
      },
      now,
    );
    return { teamId: team.id, jobId: mailJob };
  });
  return answerAfterMail(ctx, teamId, memberId, jobId);
}
