import type { Member, MemberListResponse } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { deleteInvitationCodes } from '../invitations/invitation-mail.js';
import { authorize, requireAccess } from '../access/access.js';
import { can, memberActor } from '../access/rules.js';
import type { UserRow } from '../users/users.repository.js';
import type { MemberPatch } from '@raccolta/contracts';
import { planMemberPatch } from './member-patch.js';
import { memberPolicy } from './members.policy.js';
import { presentMember } from './members.presenter.js';
import {
  countMemberships,
  deleteMember,
  findMember,
  isNicknameTaken,
  isNicknameViolation,
  listMembers,
  updateMember,
} from './members.repository.js';

/** A member of the team as it is now; a member of another team is not found. */
export async function getPresentedMember(db: Db, teamId: string, userId: string): Promise<Member> {
  const row = await findMember(db, teamId, userId);
  if (!row) throw new AppError('notFound');
  return presentMember(row);
}

export async function listTeamMembers(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  query: { limit?: number; lastKey?: string | undefined; prefix?: string | undefined },
): Promise<MemberListResponse> {
  const access = await requireAccess(ctx, user, { team: teamRef }, can.listMembers);
  const page = await listMembers(ctx.db, access.team.id, query);
  return { members: page.items.map(presentMember), pagination: { lastKey: page.lastKey } };
}

export async function getTeamMember(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  memberId: string,
): Promise<Member> {
  const access = await requireAccess(ctx, user, { team: teamRef }, can.listMembers);
  const row = await findMember(ctx.db, access.team.id, memberId);
  if (!row) throw new AppError('notFound');
  authorize(memberPolicy.read(memberActor(access), row));
  return presentMember(row);
}

/**
 * Applies a member PATCH in one transaction, after every operation passed its rule. The rows are
 * read with locks inside the transaction, so two managers acting at once each see the other's
 * finished change; the owner's role and status are never among what a PATCH may change.
 */
export async function patchTeamMember(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  memberId: string,
  ops: MemberPatch,
): Promise<Member> {
  const now = ctx.clock();
  try {
    const teamId = await ctx.db.transaction().execute(async (trx) => {
      const access = await requireAccess(
        ctx,
        user,
        { team: teamRef, member: memberId },
        can.anyMember,
        { db: trx, lock: true },
      );
      const { team, target } = access;
      const { changes, nickname } = planMemberPatch(memberActor(access), target, ops);
      if (nickname !== undefined && (await isNicknameTaken(trx, team.id, nickname, memberId))) {
        throw new AppError('nicknameAlreadyExists');
      }
      if (Object.keys(changes).length > 0) {
        await updateMember(trx, team.id, memberId, { ...changes, updated_at: now });
      }
      return team.id;
    });
    return await getPresentedMember(ctx.db, teamId, memberId);
  } catch (err) {
    // Two renames to the same name at once: the index stops the second.
    if (isNicknameViolation(err)) throw new AppError('nicknameAlreadyExists', { cause: err });
    throw err;
  }
}

/**
 * Removes a member. An internal member's account exists only for this team, and an account made
 * by an invitation that was never taken up exists only for it: both go with the membership.
 */
export async function removeTeamMember(
  ctx: AppContext,
  user: UserRow,
  teamRef: string,
  memberId: string,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const { team } = await requireAccess(
      ctx,
      user,
      { team: teamRef, member: memberId },
      can.removeMember,
      { db: trx, lock: true },
    );
    await deleteMember(trx, team.id, memberId);
    await deleteInvitationCodes(trx, memberId, team.id);
    const account = await trx
      .selectFrom('users')
      .select(['kind', 'team_id', 'sign_up_method', 'password_hash'])
      .where('id', '=', memberId)
      .executeTakeFirst();
    if (!account) return;
    const internalHere = account.kind === 'internal' && account.team_id === team.id;
    const unusedInvitation =
      account.sign_up_method === 'invitation' &&
      account.password_hash === null &&
      (await countMemberships(trx, memberId)) === 0 &&
      !(await trx
        .selectFrom('user_identities')
        .select('user_id')
        .where('user_id', '=', memberId)
        .executeTakeFirst());
    if (internalHere || unusedInvitation) {
      await trx.deleteFrom('users').where('id', '=', memberId).execute();
    }
  });
}
