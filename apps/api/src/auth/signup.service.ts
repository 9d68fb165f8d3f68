import { passwordSchema, type Locale } from '@raccolta/contracts';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { reserveMailTo } from '../mail/recipient-limit.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { findUserByEmail, insertStandardUser, type UserRow } from '../users/users.repository.js';
import { checkCode, consumeCode, createCode, invalidateCodes } from './one-time-codes.js';
import { hashPassword } from './passwords.js';
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
 * A sign-up over an account an invitation made (no password yet), waiting in its verification
 * link: the account takes it only when that link is opened, so whoever signs up with an address
 * they do not own gets nothing.
 */
const pendingSignUpSchema = z.object({
  signUp: z.object({
    passwordHash: z.string().min(1),
    nickname: z.string(),
    locale: z.string(),
    scope: z.enum(['global', 'team']),
  }),
});
type PendingSignUp = z.infer<typeof pendingSignUpSchema>['signUp'];

/** An account made by an invitation that no one has completed: no password, mailbox unproven. */
function isUncompletedInvitedAccount(user: UserRow): boolean {
  return (
    user.kind === 'standard' &&
    user.sign_up_method === 'invitation' &&
    user.password_hash === null &&
    user.email_verified !== 1
  );
}

/**
 * Enqueues (in `db`'s transaction) a fresh verification link; older links stop working. A
 * pending sign-up rides in the link (see pendingSignUpSchema).
 */
export async function sendVerification(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  db: Db,
  user: UserRow,
  now: number,
  pending?: PendingSignUp,
): Promise<void> {
  if (!user.email) return;
  // Over the recipient's mail limit nothing is sent; the caller answers as usual.
  if (!(await reserveMailTo(db, user.email, now))) return;
  await invalidateCodes(db, user.id, 'verify_email', now);
  const code = await createCode(
    db,
    {
      userId: user.id,
      purpose: 'verify_email',
      ttlMs: ctx.config.auth.verificationCodeTtlMs,
      ...(pending ? { data: { signUp: pending } } : {}),
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
      locale: (pending?.locale ?? user.locale) === 'it' ? 'it' : 'en',
      template: 'verifyEmail',
      vars: { link, name: pending?.nickname ?? user.nickname ?? undefined },
    },
    ctx.clock,
  );
}

/**
 * Self sign-up. An e-mail already taken answers as spec §8 names it, and nothing of the existing
 * account changes: otherwise anyone could set the password of an address before its owner verifies
 * it (pre-hijacking). An owner who lost the verification mail of an unverified sign-up gets it
 * again, at most every 10 minutes, like at sign-in.
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
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const found = await findUserByEmail(trx, email);
    if (found) return { kind: 'exists' as const, existing: found };
    const user = await insertStandardUser(
      trx,
      {
        email,
        emailVerified: false,
        nickname: input.nickname.trim(),
        passwordHash,
        scope: ctx.config.auth.signupGlobalScope ? 'global' : 'team',
        locale: input.locale,
        signUpMethod: 'email_password',
      },
      now,
    );
    // Taken by a concurrent sign-up: answered below as any existing account.
    if (!user) return { kind: 'raced' as const };
    await sendVerification(ctx, trx, user, now);
    return { kind: 'created' as const, user };
  });
  if (outcome.kind === 'created') {
    return { userId: outcome.user.id, username: outcome.user.username };
  }
  const existing =
    outcome.kind === 'exists' ? outcome.existing : await findUserByEmail(ctx.db, email);
  if (!existing) throw new Error('the account that took this e-mail is gone');
  if (isUncompletedInvitedAccount(existing)) {
    // The invited person signing up: their account is completed when they open the link.
    const pending: PendingSignUp = {
      passwordHash,
      nickname: input.nickname.trim(),
      locale: input.locale,
      scope: existing.scope === 'global' || ctx.config.auth.signupGlobalScope ? 'global' : 'team',
    };
    await ctx.db.transaction().execute((trx) => sendVerification(ctx, trx, existing, now, pending));
    return { userId: existing.id, username: existing.username };
  }
  if (
    existing.email_verified !== 1 &&
    existing.sign_up_method === 'email_password' &&
    existing.password_hash !== null
  ) {
    await resendVerificationIfStale(ctx, existing, now);
  }
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
  await ctx.db.transaction().execute((trx) => sendVerification(ctx, trx, user, now));
}

function duplicateError(existing: UserRow): AppError {
  if (existing.sign_up_method === 'email_password') return new AppError('userAlreadyExists');
  if (existing.sign_up_method === 'invitation') return new AppError('accountAliasAlreadyExists');
  return new AppError('alreadySignedUp', { data: { provider: existing.sign_up_method } });
}

/** Confirms the e-mail from the link. A second click on a used link of a verified account succeeds. */
export async function verifyEmail(
  ctx: AppContext,
  input: { code: string; email: string; username: string },
): Promise<void> {
  const now = ctx.clock();
  const user = await findUserByEmail(ctx.db, input.email.trim());
  if (!user || user.username !== input.username.trim().toLowerCase())
    throw new AppError('wrongVerificationCode');
  const check = await checkCode(ctx.db, input.code, 'verify_email', now, user.id);
  if (check.status === 'used' && user.email_verified === 1) return;
  if (check.status === 'expired') throw new AppError('expiredVerificationCode');
  if (check.status !== 'valid') throw new AppError('wrongVerificationCode');
  const pending = pendingSignUpSchema.safeParse(check.data);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, check.id, now))) throw new AppError('wrongVerificationCode');
    if (!pending.success) {
      await trx
        .updateTable('users')
        .set({ email_verified: 1, updated_at: now })
        .where('id', '=', user.id)
        .execute();
      return;
    }
    const { signUp } = pending.data;
    const completed = await trx
      .updateTable('users')
      .set({
        email_verified: 1,
        password_hash: signUp.passwordHash,
        nickname: signUp.nickname,
        locale: signUp.locale,
        scope: signUp.scope,
        sign_up_method: 'email_password',
        updated_at: now,
      })
      .where('id', '=', user.id)
      .where('password_hash', 'is', null)
      .executeTakeFirst();
    // Completed meanwhile (an invitation accepted with a password): that password stands.
    if (Number(completed.numUpdatedRows) !== 1) throw new AppError('userAlreadyExists');
  });
}
