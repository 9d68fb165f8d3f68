import { passwordSchema, type Locale } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import {
  findUserByEmail,
  insertUser,
  uniqueUsernameFor,
  type UserRow,
} from '../users/users.repository.js';
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

/** Enqueues (in `db`'s transaction) a fresh verification link; older links stop working. */
export async function sendVerification(
  ctx: AppContext,
  db: Db,
  user: UserRow,
  now: number,
): Promise<void> {
  if (!user.email) return;
  await invalidateCodes(db, user.id, 'verify_email', now);
  const code = await createCode(
    db,
    { userId: user.id, purpose: 'verify_email', ttlMs: ctx.config.auth.verificationCodeTtlMs },
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
      locale: user.locale === 'it' ? 'it' : 'en',
      template: 'verifyEmail',
      vars: { link, name: user.nickname ?? undefined },
    },
    ctx.clock,
  );
}

/**
 * Self sign-up. An e-mail already taken answers as spec §8 names it; an earlier sign-up that was
 * never verified is replaced (its owner may have lost the mail, or someone else typed the address:
 * either way only the mailbox's owner can verify it).
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
  return ctx.db.transaction().execute(async (trx) => {
    const existing = await findUserByEmail(trx, email);
    if (existing) {
      if (
        existing.email_verified === 1 ||
        existing.sign_up_method !== 'email_password' ||
        existing.password_hash === null
      ) {
        throw duplicateError(existing);
      }
      await trx
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          nickname: input.nickname.trim(),
          locale: input.locale,
          updated_at: now,
        })
        .where('id', '=', existing.id)
        .execute();
      await sendVerification(
        ctx,
        trx,
        { ...existing, nickname: input.nickname.trim(), locale: input.locale },
        now,
      );
      return { userId: existing.id, username: existing.username };
    }
    const user = await insertUser(
      trx,
      {
        email,
        emailVerified: false,
        username: await uniqueUsernameFor(trx, email),
        kind: 'standard',
        teamId: null,
        nickname: input.nickname.trim(),
        passwordHash,
        scope: ctx.config.auth.signupGlobalScope ? 'global' : 'team',
        locale: input.locale,
        signUpMethod: 'email_password',
      },
      now,
    );
    await sendVerification(ctx, trx, user, now);
    return { userId: user.id, username: user.username };
  });
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
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, check.id, now))) throw new AppError('wrongVerificationCode');
    await trx
      .updateTable('users')
      .set({ email_verified: 1, updated_at: now })
      .where('id', '=', user.id)
      .execute();
  });
}
