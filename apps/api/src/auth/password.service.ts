import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { findUserByEmail } from '../users/users.repository.js';
import { webLink } from './links.js';
import { checkCode, consumeCode, createCode, invalidateCodes } from './one-time-codes.js';
import { hashPassword } from './passwords.js';
import { clear } from './rate-limiter.js';
import { revokeAllSessions } from './sessions.js';
import { signInAccountKey } from './signin.service.js';
import { assertStrongPassword } from './signup.service.js';

/** Always succeeds, so it cannot tell whether an address has an account. */
export async function forgotPassword(ctx: AppContext, input: { email: string }): Promise<void> {
  const now = ctx.clock();
  const user = await findUserByEmail(ctx.db, input.email.trim());
  if (!user?.email || user.kind !== 'standard') return;
  const email = user.email;
  await ctx.db.transaction().execute(async (trx) => {
    await invalidateCodes(trx, user.id, 'reset_password', now);
    const code = await createCode(
      trx,
      { userId: user.id, purpose: 'reset_password', ttlMs: ctx.config.auth.resetCodeTtlMs },
      now,
    );
    const link = webLink(ctx.config, '/auth/reset', { email, code });
    await enqueueMail(
      trx,
      {
        to: email,
        locale: user.locale === 'it' ? 'it' : 'en',
        template: 'resetPassword',
        vars: { link, name: user.nickname ?? undefined },
      },
      ctx.clock,
    );
  });
}

/**
 * Sets a new password from the e-mailed code. It also proves the mailbox, so the e-mail counts as
 * verified; every existing session ends.
 */
export async function resetPassword(
  ctx: AppContext,
  input: { newPassword: string; email: string; code: string },
): Promise<void> {
  assertStrongPassword(input.newPassword);
  const now = ctx.clock();
  const user = await findUserByEmail(ctx.db, input.email.trim());
  if (!user) throw new AppError('wrongVerificationCode');
  const check = await checkCode(ctx.db, input.code, 'reset_password', now, user.id);
  if (check.status === 'expired') throw new AppError('expiredVerificationCode');
  if (check.status !== 'valid') throw new AppError('wrongVerificationCode');
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, check.id, now))) throw new AppError('wrongVerificationCode');
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, email_verified: 1, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await revokeAllSessions(trx, user.id, now);
  });
  await clear(ctx.db, signInAccountKey(user.id));
}
