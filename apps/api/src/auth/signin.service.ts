import type { TokenSet } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { findTeamByRef } from '../access/access.repository.js';
import { findUserByEmail, findUserByUsername, type UserRow } from '../users/users.repository.js';
import { checkCode, consumeCode, createCode } from './one-time-codes.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { clear, release, reserve } from '../db/rate-limits.js';
import type { SessionDevice } from './devices.js';
import { requireSecondStep } from './second-factor/second-factor.service.js';
import { startSession } from './sessions.js';
import { sendSecurityNotice } from './security-notices.js';
import { assertStrongPassword, resendVerificationIfStale } from './signup.service.js';

const NEW_PASSWORD_SESSION_MS = 15 * 60_000;

export interface SignInInput {
  email?: string | undefined;
  username?: string | undefined;
  password: string;
  team?: string | undefined;
}

/**
 * How a username sign-in named its team: `none` (no team sent), `unknown` (a reference that is no
 * team) or `found`. An e-mail sign-in never needs one, so it is always `found`.
 */
type TeamLookup = 'none' | 'unknown' | 'found';

async function findSignInUser(
  db: Db,
  input: SignInInput,
): Promise<{ user: UserRow | undefined; team: TeamLookup }> {
  if (input.email) return { user: await findUserByEmail(db, input.email.trim()), team: 'found' };
  const username = (input.username ?? '').trim();
  if (input.team) {
    const team = await findTeamByRef(db, input.team);
    // An internal member of that team, else a standard user who typed a username and a team.
    const internal = team ? await findUserByUsername(db, username, team.id) : undefined;
    return {
      user: internal ?? (await findUserByUsername(db, username, null)),
      team: team ? 'found' : 'unknown',
    };
  }
  return { user: await findUserByUsername(db, username, null), team: 'none' };
}

/**
 * The answer to a failed sign-in. A username with no team, or with a team code that is no team,
 * says so (teamRequired, teamNotFound) whether or not the username exists, so an internal member
 * who left the code out or followed a link with a wrong one is not sent hunting for a wrong
 * password, and nothing tells which usernames exist.
 */
function signInFailure(team: TeamLookup): AppError {
  if (team === 'none') return new AppError('teamRequired');
  if (team === 'unknown') return new AppError('teamNotFound');
  return new AppError('notAuthorized', { message: 'Incorrect username or password' });
}

/** The sign-in failure counter of an account, whichever e-mail, username or team reference named it. */
export function signInAccountKey(userId: string): string {
  return `signin:user:${userId}`;
}

/**
 * The counter of a name that matches no account, keyed by what it would resolve to: an e-mail, or
 * a username (with any team, known or made up, it would fall back to the standard user). So an
 * unknown account locks after the same number of failures as a known one, whatever team is typed.
 */
function unknownAccountKey(input: SignInInput): string {
  return input.email
    ? `signin:unknown:email:${input.email.trim().toLowerCase()}`
    : `signin:unknown:username:${(input.username ?? '').trim().toLowerCase()}`;
}

/**
 * Password sign-in. An unknown user and a wrong password give the same answer in about the same
 * time. Failures are counted per account (the resolved user, so every way of naming it counts
 * together) and per client address, in the database so every API process counts together; past
 * the limit the answer is tooManyRequests. The attempt is counted before the password is checked,
 * atomically, so a burst of parallel guesses gets at most the limit's number of checks; a right
 * password then clears the account's counter and gives the address its attempt back. A failure
 * is counted the same whichever answer it gets (signInFailure).
 */
export async function signIn(
  ctx: AppContext,
  input: SignInInput,
  clientIp: string,
  device?: SessionDevice,
): Promise<TokenSet> {
  const { auth } = ctx.config;
  const now = ctx.clock();
  const { user, team } = await findSignInUser(ctx.db, input);
  const accountKey = user ? signInAccountKey(user.id) : unknownAccountKey(input);
  const ipKey = `signin:ip:${clientIp}`;
  const window = auth.signinFailureWindowMs;
  if (!(await reserve(ctx.db, ipKey, auth.signinMaxFailuresPerIp, window, now))) {
    throw new AppError('tooManyRequests');
  }
  if (!(await reserve(ctx.db, accountKey, auth.signinMaxFailuresPerAccount, window, now))) {
    await release(ctx.db, ipKey, now);
    throw new AppError('tooManyRequests');
  }

  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) throw signInFailure(team);
  await Promise.all([clear(ctx.db, accountKey), release(ctx.db, ipKey, now)]);

  if (user.kind === 'standard' && user.email_verified !== 1) {
    await resendVerificationIfStale(ctx, user, now);
    throw new AppError('notConfirmed');
  }
  if (user.password_change_required === 1 && user.team_id) {
    const session = await createCode(
      ctx.db,
      { userId: user.id, purpose: 'new_password', ttlMs: NEW_PASSWORD_SESSION_MS },
      now,
    );
    throw new AppError('newPasswordRequired', {
      data: { session, teamId: user.team_id, username: user.username },
    });
  }
  await requireSecondStep(ctx, user, { identityProvider: false });
  return startSession(ctx, user, { identityProvider: false, device });
}

/**
 * An internal member's first sign-in: the generated password is replaced by one of their own
 * (samePassword when it is the current one; the session code stays usable for another try).
 */
export async function setNewPassword(
  ctx: AppContext,
  input: { newPassword: string; session: string; teamId: string; username: string },
  device?: SessionDevice,
): Promise<TokenSet> {
  assertStrongPassword(input.newPassword);
  const now = ctx.clock();
  const check = await checkCode(ctx.db, input.session, 'new_password', now);
  if (check.status === 'expired') throw new AppError('expiredToken');
  if (check.status !== 'valid') throw new AppError('notAuthorized');
  const user = await findUserByUsername(ctx.db, input.username, input.teamId);
  if (!user || user.id !== check.userId) throw new AppError('notAuthorized');
  // The generated password was shared with whoever created the account: it cannot stay.
  if (await verifyPassword(user.password_hash, input.newPassword)) {
    throw new AppError('samePassword');
  }
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, check.id, now))) throw new AppError('notAuthorized');
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_change_required: 0, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await sendSecurityNotice({ ...ctx, db: trx }, user, 'passwordChanged');
  });
  return startSession(ctx, user, { identityProvider: false, device });
}
