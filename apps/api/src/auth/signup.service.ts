import { passwordSchema, type Locale } from '@raccolta/contracts';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { reserveMailTo } from '../mail/recipient-limit.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { findUserByEmail, insertStandardUser, type UserRow } from '../users/users.repository.js';
import { checkCode, consumeCode, createCode, invalidateCodes } from './one-time-codes.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { revokeAllSessions } from './sessions.js';
import { webLink } from './links.js';

export interface SignUpInput {
  email: string;
  password: string;
  nickname: string;
  locale: Locale;
}

/** The password rules of spec §5, checked where a password is chosen: invalidPassword. */
export function assertStrongPassword(password: string): void {
  if (!passwordSchema.safeParse(password).success) throw new AppError('invalidPassword');
}

/**
 * The sign-up a verification link answers (docs/decisions.md, "Verification carries the
 * password"): the password hash, name and language chosen with it ride in the link's code, and
 * the account takes them only when the link is opened, so a password chosen before the mailbox
 * was proven never survives the proof unless the proof answers that very sign-up. `contested`: two
 * sign-ups with different passwords were made for the address before it was verified, so no
 * password is trusted and the person who opens the link chooses one.
 */
const pendingSignUpSchema = z.object({
  signUp: z.object({
    passwordHash: z.string().min(1),
    nickname: z.string(),
    locale: z.string(),
    scope: z.enum(['global', 'team']),
  }),
  contested: z.boolean().optional(),
});
type PendingSignUp = z.infer<typeof pendingSignUpSchema>;

/** An account made by an invitation that no one has completed: no password, mailbox unproven. */
function isUncompletedInvitedAccount(user: UserRow): boolean {
  return (
    user.kind === 'standard' &&
    user.sign_up_method === 'invitation' &&
    user.password_hash === null &&
    user.email_verified !== 1
  );
}

/** An e-mail/password sign-up whose mailbox nobody has proven yet. */
function isUnverifiedSignUp(user: UserRow): boolean {
  return (
    user.kind === 'standard' &&
    user.sign_up_method === 'email_password' &&
    user.email_verified !== 1 &&
    user.password_hash !== null
  );
}

/**
 * The sign-up the newest verification link of `user` carried, sent or superseded: what a resend
 * mails again. Accounts made before links carried their sign-up have none; their own row stands in
 * for it, contested, since nothing tells which sign-up set that password.
 */
async function latestPendingSignUp(db: Db, user: UserRow): Promise<PendingSignUp> {
  const row = await db
    .selectFrom('one_time_codes')
    .select('data')
    .where('user_id', '=', user.id)
    .where('purpose', '=', 'verify_email')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const parsed = pendingSignUpSchema.safeParse(row?.data ? JSON.parse(row.data) : null);
  if (parsed.success) return parsed.data;
  return {
    signUp: {
      passwordHash: user.password_hash ?? '',
      nickname: user.nickname ?? '',
      locale: user.locale,
      scope: user.scope === 'global' ? 'global' : 'team',
    },
    contested: true,
  };
}

/**
 * Enqueues (in `db`'s transaction) a fresh verification link carrying the sign-up it answers;
 * older links stop working. Over the recipient's mail limit nothing is sent and nothing changes.
 */
export async function sendVerification(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  db: Db,
  user: UserRow,
  now: number,
  pending: PendingSignUp,
): Promise<void> {
  if (!user.email) return;
  // Over the recipient's mail limit nothing is sent; the caller answers as usual.
  if (!(await reserveMailTo(db, user.email, now, 'account'))) return;
  await invalidateCodes(db, user.id, 'verify_email', now);
  const code = await createCode(
    db,
    {
      userId: user.id,
      purpose: 'verify_email',
      ttlMs: ctx.config.auth.verificationCodeTtlMs,
      data: pending,
    },
    now,
  );
  const link = webLink(ctx.config, '/auth/verify', {
    email: user.email,
    code,
    username: user.username,
  });
  await enqueueMail(
    db,
    {
      to: user.email,
      locale: pending.signUp.locale === 'it' ? 'it' : 'en',
      template: 'verifyEmail',
      vars: { link, name: pending.signUp.nickname || user.nickname || undefined },
    },
    ctx.clock,
  );
}

/** A new verification link for the sign-up the last one answered (a lost or expired mail). */
export async function resendVerificationLink(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  db: Db,
  user: UserRow,
  now: number,
): Promise<void> {
  await sendVerification(ctx, db, user, now, await latestPendingSignUp(db, user));
}

/**
 * Self sign-up. A verified account, or one made by a provider, answers as spec §8 names it and
 * nothing of it changes. An address an owner invited and nobody completed gets a link that
 * completes the account, but keeps no password: the one who opens it chooses one (a sign-up over
 * it may be a stranger's, and the invitee would not tell its mail from the invitation's). A sign-up over an e-mail/password sign-up
 * not yet verified answers userAlreadyExists too, the same answer as for a verified account, and
 * mails a link carrying this sign-up; older links stop working, and the account's row is untouched
 * until a link is opened (pre-hijacking: whoever signs up with an address they do not own gets
 * nothing).
 */
export async function signUp(
  ctx: AppContext,
  input: SignUpInput,
): Promise<{ userId: string; username: string }> {
  if (ctx.config.auth.signupMode === 'invitation') throw new AppError('restrictedAccess');
  assertStrongPassword(input.password);
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock();
  const signUp: PendingSignUp['signUp'] = {
    passwordHash,
    nickname: input.nickname.trim(),
    locale: input.locale,
    scope: ctx.config.auth.signupGlobalScope ? 'global' : 'team',
  };
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const found = await findUserByEmail(trx, email);
    if (found) return { kind: 'exists' as const, existing: found };
    const user = await insertStandardUser(
      trx,
      {
        email,
        emailVerified: false,
        nickname: signUp.nickname,
        passwordHash,
        scope: signUp.scope,
        locale: input.locale,
        signUpMethod: 'email_password',
      },
      now,
    );
    // Taken by a concurrent sign-up: answered below as any existing account.
    if (!user) return { kind: 'raced' as const };
    await sendVerification(ctx, trx, user, now, { signUp });
    return { kind: 'created' as const, user };
  });
  if (outcome.kind === 'created') {
    return { userId: outcome.user.id, username: outcome.user.username };
  }
  const existing =
    outcome.kind === 'exists' ? outcome.existing : await findUserByEmail(ctx.db, email);
  if (!existing) throw new Error('the account that took this e-mail is gone');
  if (isUncompletedInvitedAccount(existing)) {
    // The invited person signing up, or someone else with their address: whoever opens the link
    // has proven the mailbox, not this password, so the link asks them to choose one.
    await ctx.db.transaction().execute((trx) =>
      sendVerification(ctx, trx, existing, now, {
        signUp: { ...signUp, scope: existing.scope === 'global' ? 'global' : signUp.scope },
        contested: true,
      }),
    );
    return { userId: existing.id, username: existing.username };
  }
  if (!isUnverifiedSignUp(existing)) throw duplicateError(existing);
  const previous = await latestPendingSignUp(ctx.db, existing);
  // The same person signing up again with the same password contests nothing.
  const contested =
    previous.contested === true ||
    !(await verifyPassword(previous.signUp.passwordHash, input.password));
  await ctx.db.transaction().execute(async (trx) => {
    await sendVerification(ctx, trx, existing, now, {
      signUp: { ...signUp, scope: existing.scope === 'global' ? 'global' : signUp.scope },
      ...(contested ? { contested } : {}),
    });
  });
  throw duplicateError(existing);
}

/** A user who lost the verification mail gets a new one, at most every 10 minutes. */
export async function resendVerificationIfStale(
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
  await ctx.db.transaction().execute((trx) => resendVerificationLink(ctx, trx, user, now));
}

function duplicateError(existing: UserRow): AppError {
  if (existing.sign_up_method === 'email_password') return new AppError('userAlreadyExists');
  if (existing.sign_up_method === 'invitation') return new AppError('accountAliasAlreadyExists');
  return new AppError('alreadySignedUp', { data: { provider: existing.sign_up_method } });
}

/**
 * Confirms the e-mail from the link, and gives the account the sign-up the link carries: its
 * password, name and language. A contested sign-up (two passwords for one unproven address)
 * keeps no password: the answer carries a reset code, the web app opens the reset page with it,
 * and the person who proved the mailbox chooses one. A second click on a used link of a verified
 * account succeeds.
 */
export async function verifyEmail(
  ctx: AppContext,
  input: { code: string; email: string; username: string },
): Promise<{ resetCode?: string }> {
  const now = ctx.clock();
  const user = await findUserByEmail(ctx.db, input.email.trim());
  if (!user || user.username !== input.username.trim().toLowerCase())
    throw new AppError('wrongVerificationCode');
  const check = await checkCode(ctx.db, input.code, 'verify_email', now, user.id);
  if (check.status === 'used' && user.email_verified === 1) return {};
  if (check.status === 'expired') throw new AppError('expiredVerificationCode');
  if (check.status !== 'valid') throw new AppError('wrongVerificationCode');
  const parsed = pendingSignUpSchema.safeParse(check.data);
  // A link of before links carried their sign-up: which sign-up set the password is unknown.
  const pending: PendingSignUp = parsed.success
    ? parsed.data
    : { ...(await latestPendingSignUp(ctx.db, user)), contested: true };
  return ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, check.id, now))) throw new AppError('wrongVerificationCode');
    const { signUp, contested } = pending;
    const completed = await trx
      .updateTable('users')
      .set({
        email_verified: 1,
        password_hash: contested === true ? null : signUp.passwordHash,
        nickname: signUp.nickname || user.nickname,
        locale: signUp.locale,
        scope: signUp.scope,
        sign_up_method: 'email_password',
        updated_at: now,
      })
      .where('id', '=', user.id)
      .where('email_verified', '=', 0)
      .where('sign_up_method', 'in', ['email_password', 'invitation'])
      .executeTakeFirst();
    // Verified meanwhile (an invitation accepted, a provider's sign-in): what it set stands.
    if (Number(completed.numUpdatedRows) !== 1) throw new AppError('userAlreadyExists');
    // Sessions from before the proof end with the password they were opened with.
    await revokeAllSessions(trx, user.id, now);
    if (contested !== true) return {};
    await invalidateCodes(trx, user.id, 'reset_password', now);
    const resetCode = await createCode(
      trx,
      { userId: user.id, purpose: 'reset_password', ttlMs: ctx.config.auth.resetCodeTtlMs },
      now,
    );
    return { resetCode };
  });
}
