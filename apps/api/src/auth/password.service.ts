import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { enqueueJob } from '../jobs/enqueue.js';
import { findUserByEmail } from '../users/users.repository.js';
import { checkCode, consumeCode } from './one-time-codes.js';
import { passwordResetJob } from './password-reset.job.js';
import { hashPassword } from './passwords.js';
import { clear } from '../db/rate-limits.js';
import { sendSecurityNotice } from './security-notices.js';
import { revokeAllSessions } from './sessions.js';
import { signInAccountKey } from './signin.service.js';
import { assertStrongPassword } from './signup.service.js';

/**
 * Always succeeds and does the same work for every address (one job enqueued, no account lookup),
 * so neither its answer nor its timing tells whether an address has an account; the job
 * (password-reset.job.ts) mails the link.
 */
export async function forgotPassword(ctx: AppContext, input: { email: string }): Promise<void> {
  await enqueueJob(
    ctx.db,
    passwordResetJob,
    { payload: { email: input.email.trim().toLowerCase() } },
    ctx.clock,
  );
}

/**
 * Sets a new password from the e-mailed code. It also proves the mailbox, so the e-mail counts as
 * verified; every existing session ends, and the passwordChanged security notice is mailed.
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
  // Used, or replaced by a newer link (which marks the older ones used): not a mistyped code.
  if (check.status === 'used') throw new AppError('usedResetLink');
  if (check.status !== 'valid') throw new AppError('wrongVerificationCode');
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await consumeCode(trx, check.id, now))) throw new AppError('usedResetLink');
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, email_verified: 1, updated_at: now })
      .where('id', '=', user.id)
      .execute();
    await revokeAllSessions(trx, user.id, now);
    await sendSecurityNotice({ ...ctx, db: trx }, user, 'passwordChanged');
  });
  await clear(ctx.db, signInAccountKey(user.id));
}
