import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { Db } from '../db/create-db.js';
import { defineJob } from '../jobs/define-job.js';
import type { Clock } from '../jobs/types.js';
import { reserveMailTo } from '../mail/recipient-limit.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { findUserByEmail } from '../users/users.repository.js';
import { webLink } from './links.js';
import { createCode, invalidateCodes } from './one-time-codes.js';

export interface PasswordResetDeps {
  config: Config;
  db: Db;
  clock: Clock;
}

/**
 * The work behind "forgot password", off the request: the request only enqueues this job, the same
 * for every address, so its timing cannot tell whether the address has an account. Here the
 * account is looked up and, for a standard user under the recipient's mail limit, a fresh reset
 * link (older ones stop working) is mailed. A rerun after a crash mails a newer link.
 */
export const passwordResetJob = defineJob({
  queue: 'auth.password-reset',
  schema: z.object({ email: z.string().max(320) }),
  maxAttempts: 5,
  handler: async ({ config, db, clock }: PasswordResetDeps, { email: address }) => {
    const now = clock();
    const user = await findUserByEmail(db, address);
    if (!user?.email || user.kind !== 'standard') return;
    const email = user.email;
    await db.transaction().execute(async (trx) => {
      if (!(await reserveMailTo(trx, email, now, 'account'))) return;
      await invalidateCodes(trx, user.id, 'reset_password', now);
      const code = await createCode(
        trx,
        { userId: user.id, purpose: 'reset_password', ttlMs: config.auth.resetCodeTtlMs },
        now,
      );
      const link = webLink(config, '/auth/reset', { email, code });
      await enqueueMail(
        trx,
        {
          to: email,
          locale: user.locale === 'it' ? 'it' : 'en',
          template: 'resetPassword',
          vars: { link, name: user.nickname ?? undefined },
        },
        clock,
      );
    });
  },
});
