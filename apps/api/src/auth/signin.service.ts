import type { TokenSet } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { findTeamByRef } from '../teams/team-access.js';
import { findUserByEmail, findUserByUsername, type UserRow } from '../users/users.repository.js';
import { checkCode, consumeCode, createCode } from './one-time-codes.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { clear, hit, peek } from './rate-limiter.js';
import { startSession } from './sessions.js';
import { assertStrongPassword, sendVerification } from './signup.service.js';

const NEW_PASSWORD_SESSION_MS = 15 * 60_000;

export interface SignInInput {
  email?: string | undefined;
  username?: string | undefined;
  password: string;
  team?: string | undefined;
}

async function findSignInUser(db: Db, input: SignInInput): Promise<UserRow | undefined> {
  if (input.email) return findUserByEmail(db, input.email.trim());
  const username = (input.username ?? '').trim();
  if (input.team) {
    const team = await findTeamByRef(db, input.team);
    // An internal member of that team, else a standard user who typed a username and a team.
    const internal = team ? await findUserByUsername(db, username, team.id) : undefined;
    return internal ?? findUserByUsername(db, username, null);
  }
  return findUserByUsername(db, username, null);
}

/**
 * Password sign-in. An unknown user and a wrong password give the same answer in about the same
 * time; failures are counted per account and per client address (in the database, so every API
 * process counts together) and past the limit the answer is tooManyRequests.
 */
export async function signIn(
  ctx: AppContext,
  input: SignInInput,
  clientIp: string,
): Promise<TokenSet> {
  const { auth } = ctx.config;
  const now = ctx.clock();
  const accountKey = `signin:account:${(input.email ?? `${input.team ?? ''}/${input.username ?? ''}`).trim().toLowerCase()}`;
  const ipKey = `signin:ip:${clientIp}`;
  const [accountFailures, ipFailures] = await Promise.all([
    peek(ctx.db, accountKey, now),
    peek(ctx.db, ipKey, now),
  ]);
  if (
    accountFailures >= auth.signinMaxFailuresPerAccount ||
    ipFailures >= auth.signinMaxFailuresPerIp
  ) {
    throw new AppError('tooManyRequests');
  }

  const user = await findSignInUser(ctx.db, input);
  const ok = await verifyPassword(user?.password_hash, input.password);
  if (!user || !ok) {
    await Promise.all([
      hit(ctx.db, accountKey, auth.signinFailureWindowMs, now),
      hit(ctx.db, ipKey, auth.signinFailureWindowMs, now),
    ]);
    throw new AppError('notAuthorized', { message: 'Incorrect username or password' });
  }
  await clear(ctx.db, accountKey);

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
  return startSession(ctx, user, { identityProvider: false });
}

/** A user who lost the verification mail gets a new one when signing in, at most every 10 minutes. */
async function resendVerificationIfStale(
  ctx: AppContext,
  user: UserRow,
  now: number,
): Promise<void> {
  const recent = await ctx.db
    .selectFrom('one_time_codes')
    .select('id')
    .where('user_id', '=', user.id)
    .where('purpose', '=', 'verify_email')
    .where('created_at', '>', now - 10 * 60_000)
    .executeTakeFirst();
  if (recent) return;
  await ctx.db.transaction().execute((trx) => sendVerification(ctx, trx, user, now));
}

/** An internal member's first sign-in: the generated password is replaced by one of their own. */
export async function setNewPassword(
  ctx: AppContext,
  input: { newPassword: string; session: string; teamId: string; username: string },
): Promise<TokenSet> {
  assertStrongPassword(input.newPassword);
  const now = ctx.clock();
  const check = await checkCode(ctx.db, input.session, 'new_password', now);
  if (check.status === 'expired') throw new AppError('expiredToken');
  if (check.status !== 'valid') throw new AppError('notAuthorized');
  const user = await findUserByUsername(ctx.db, input.username, input.teamId);
  if (!user || user.id !== check.userId) throw new AppError('notAuthorized');
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, check.id, now))) throw new AppError('notAuthorized');
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, password_change_required: 0, updated_at: now })
      .where('id', '=', user.id)
      .execute();
  });
  return startSession(ctx, user, { identityProvider: false });
}
