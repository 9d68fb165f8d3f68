import type { MemberRole, TokenSet } from '@raccolta/contracts';
import { consumeCode } from '../auth/one-time-codes.js';
import { hashPassword } from '../auth/passwords.js';
import { hashToken } from '../auth/secrets.js';
import type { SessionDevice } from '../auth/devices.js';
import { startSession } from '../auth/sessions.js';
import { assertStrongPassword } from '../auth/signup.service.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import type { MemberRow } from '../members/members.repository.js';
import { findMembership, findTeamByRef } from '../access/access.repository.js';
import { findUserById, type UserRow } from '../users/users.repository.js';
import { invitationTeamId } from './invitation-mail.js';
import { inviterName } from './invitations.service.js';
import {
  closeInvitedMember,
  findInvitationCode,
  setFirstPassword,
} from './invitations.repository.js';

interface OpenInvitation {
  codeId: string;
  teamId: string;
  teamName: string;
  member: MemberRow;
  invitee: UserRow;
}

/**
 * The invitation a link's token stands for, still open. A token that is unknown, of another team
 * or replaced by a resend is invitationNotFound; one already used, or whose member is no longer
 * invited, invitationAlreadyHandled; one past its time, expiredToken.
 */
async function findOpenInvitation(
  db: Db,
  teamRef: string,
  token: string,
  now: number,
): Promise<OpenInvitation> {
  const team = await findTeamByRef(db, teamRef);
  const code = await findInvitationCode(db, hashToken(token));
  const data: unknown = code?.data ? JSON.parse(code.data) : null;
  if (!team || !code || invitationTeamId(data) !== team.id) {
    throw new AppError('invitationNotFound');
  }
  if (code.used_at !== null) throw new AppError('invitationAlreadyHandled');
  const member = await findMembership(db, team.id, code.user_id);
  const invitee = await findUserById(db, code.user_id);
  if (!member || !invitee) throw new AppError('invitationNotFound');
  if (member.status !== 'invited') throw new AppError('invitationAlreadyHandled');
  if (code.expires_at <= now || (member.invite_expires_at ?? 0) <= now) {
    throw new AppError('expiredToken');
  }
  return { codeId: code.id, teamId: team.id, teamName: team.name, member, invitee };
}

/** Uses the token and moves the member out of `invited`; whoever comes second is told it is handled. */
async function closeInvitation(
  trx: Db,
  invitation: OpenInvitation,
  status: 'active' | 'rejected',
  now: number,
): Promise<void> {
  if (!(await consumeCode(trx, invitation.codeId, now))) {
    throw new AppError('invitationAlreadyHandled');
  }
  if (!(await closeInvitedMember(trx, invitation.teamId, invitation.member.user_id, status, now))) {
    throw new AppError('invitationAlreadyHandled');
  }
}

/**
 * What the accept page shows about an invitation before it is accepted: the invited address, the
 * team's name and who invited (as the invitation mail names them; null when that member is gone).
 * Only the holder of the link's token gets it.
 */
export interface InvitationSummary {
  email: string | null;
  teamName: string;
  inviterName: string | null;
}

async function summarise(db: Db, invitation: OpenInvitation): Promise<InvitationSummary> {
  const inviterId = invitation.member.created_by;
  const inviter = inviterId ? await findUserById(db, inviterId) : undefined;
  const inviterMember = inviter
    ? await findMembership(db, invitation.teamId, inviter.id)
    : undefined;
  return {
    email: invitation.invitee.email ?? invitation.member.email,
    teamName: invitation.teamName,
    inviterName: inviter && inviterMember ? inviterName(inviter, inviterMember) : null,
  };
}

export interface AcceptResult {
  membership: { role: MemberRole; teamId: string; teamName: string };
  /** A session when accepting completed a new account; null when the caller was signed in. */
  auth: TokenSet | null;
}

/**
 * Accepts an invitation. Signed in, the caller must be the invitee (emailMismatch otherwise).
 * Not signed in, an invitee with an account of their own must sign in first (notLoggedIn); the
 * account made by the invitation is completed with a password, which the first call asks for
 * (newInvitedAccountRequired) and the retry brings. The link proves the mailbox, so the e-mail
 * counts as verified.
 */
export async function acceptInvitation(
  ctx: AppContext,
  teamRef: string,
  input: { token: string; password?: string | undefined },
  caller: UserRow | null,
  device?: SessionDevice,
): Promise<AcceptResult> {
  const now = ctx.clock();
  const invitation = await findOpenInvitation(ctx.db, teamRef, input.token, now);
  const { invitee } = invitation;
  let passwordHash: string | null = null;
  if (caller) {
    if (caller.id !== invitee.id) {
      throw new AppError('emailMismatch', { data: { ...(await summarise(ctx.db, invitation)) } });
    }
  } else if (invitee.password_hash !== null || invitee.sign_up_method !== 'invitation') {
    throw new AppError('notLoggedIn', { data: { ...(await summarise(ctx.db, invitation)) } });
  } else if (input.password === undefined) {
    throw new AppError('newInvitedAccountRequired', {
      data: { ...(await summarise(ctx.db, invitation)) },
    });
  } else {
    assertStrongPassword(input.password);
    passwordHash = await hashPassword(input.password);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await closeInvitation(trx, invitation, 'active', now);
    if (passwordHash === null) return;
    // Completed meanwhile through another team's invitation: the password chosen there stands.
    if (!(await setFirstPassword(trx, invitee.id, passwordHash, now)))
      throw new AppError('notLoggedIn', { data: { ...(await summarise(trx, invitation)) } });
  });
  const auth =
    passwordHash === null
      ? null
      : await startSession(
          ctx,
          { ...invitee, email_verified: 1 },
          { identityProvider: false, device },
        );
  return {
    membership: {
      role: invitation.member.role,
      teamId: invitation.teamId,
      teamName: invitation.teamName,
    },
    auth,
  };
}

/** Declines an invitation; the link alone is enough, signed in or not. */
export async function rejectInvitation(
  ctx: AppContext,
  teamRef: string,
  token: string,
): Promise<void> {
  const now = ctx.clock();
  const invitation = await findOpenInvitation(ctx.db, teamRef, token, now);
  await ctx.db.transaction().execute((trx) => closeInvitation(trx, invitation, 'rejected', now));
}
