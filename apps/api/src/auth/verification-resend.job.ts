import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import { enqueueJob } from '../jobs/enqueue.js';
import type { Clock } from '../jobs/types.js';
import { AppError } from '../errors/app-error.js';
import { findUserByEmail } from '../users/users.repository.js';
import { reserve } from '../db/rate-limits.js';
import { resendVerificationLink } from './signup.service.js';

export interface VerificationResendDeps {
  config: Config;
  db: Db;
  clock: Clock;
}

/**
 * The work behind "send a new verification link", off the request like forgot-password: the
 * request only enqueues this job, the same for every address. Only an e-mail/password sign-up
 * still waiting for its verification gets a fresh link (older ones stop working), within the
 * recipient's mail limit; an unknown, verified, provider or invitation-made account gets nothing.
 */
export const verificationResendJob = defineJob({
  queue: 'auth.verification-resend',
  schema: z.object({ email: z.string().max(320) }),
  maxAttempts: 5,
  handler: async (deps: VerificationResendDeps, { email }) => {
    const user = await findUserByEmail(deps.db, email);
    if (
      !user ||
      user.kind !== 'standard' ||
      user.email_verified === 1 ||
      user.sign_up_method !== 'email_password' ||
      user.password_hash === null
    ) {
      return;
    }
    const now = deps.clock();
    await deps.db.transaction().execute((trx) => resendVerificationLink(deps, trx, user, now));
  },
});

/** Requests for a new verification link one client address may make in an hour. */
export const RESEND_VERIFICATION_PER_ADDRESS = { max: 10, windowMs: 60 * 60_000 } as const;

/**
 * "Send a new link" of an expired verification link or an unverified sign-in. Answers the same for
 * every address (one job enqueued, no account lookup here; verification-resend.job.ts decides and
 * mails, within the recipient's mail limit), so it tells nothing about accounts. Counted per client
 * address in the database, so every API process counts together: past the limit, tooManyRequests.
 */
export async function resendVerification(
  ctx: AppContext,
  input: { email: string },
  clientIp: string,
): Promise<void> {
  const now = ctx.clock();
  const { max, windowMs } = RESEND_VERIFICATION_PER_ADDRESS;
  if (!(await reserve(ctx.db, `resend-verification:ip:${clientIp}`, max, windowMs, now))) {
    throw new AppError('tooManyRequests');
  }
  await enqueueJob(
    ctx.db,
    verificationResendJob,
    { payload: { email: input.email.trim().toLowerCase() } },
    ctx.clock,
  );
}
