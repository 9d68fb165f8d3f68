import { release, reserve } from '../db/rate-limits.js';
import type { Db } from '../db/create-db.js';

/**
 * Mail budgets per recipient, so no one can flood a mailbox through the anonymous routes that
 * send mail. Counted in the database (`rate_limits`), so every API process and the worker share
 * the counts. Two budgets that never touch each other: `account` (verification and reset links,
 * the way back into an account) and `newsletter` (subscription confirmations), so anonymous
 * subscribe requests for someone's address can never use up the mails that let them recover
 * their account.
 */
export const RECIPIENT_MAIL_LIMITS = {
  account: [
    { window: 'hour', max: 5, ms: 60 * 60_000 },
    { window: 'day', max: 20, ms: 24 * 60 * 60_000 },
  ],
  newsletter: [
    { window: 'hour', max: 5, ms: 60 * 60_000 },
    { window: 'day', max: 10, ms: 24 * 60 * 60_000 },
  ],
} as const;

export type MailBudget = keyof typeof RECIPIENT_MAIL_LIMITS;

/**
 * Newsletter confirmations sent in an hour to all addresses together: subscribing is anonymous,
 * so a script spreading requests over many addresses stops here instead of in the mail provider's
 * reputation.
 */
export const NEWSLETTER_CONFIRMATIONS_PER_HOUR = 500;
const NEWSLETTER_GLOBAL_KEY = 'mail:newsletter-confirm:all:hour';

/**
 * Counts one mail to `email` against `budget` if every window has room: false when one is full,
 * and then nothing stays counted (the windows already counted are given back), the caller sends
 * nothing and answers as if it had, so the limit reveals nothing either. Only mails that are
 * really sent are counted.
 */
export async function reserveMailTo(
  db: Db,
  email: string,
  nowMs: number,
  budget: MailBudget = 'account',
): Promise<boolean> {
  const counted: string[] = [];
  for (const limit of RECIPIENT_MAIL_LIMITS[budget]) {
    const key = counterKey(budget, limit.window, email);
    if (!(await reserve(db, key, limit.max, limit.ms, nowMs))) {
      for (const done of counted) await release(db, done, nowMs);
      return false;
    }
    counted.push(key);
  }
  if (budget === 'newsletter') {
    const hour = 60 * 60_000;
    if (
      !(await reserve(db, NEWSLETTER_GLOBAL_KEY, NEWSLETTER_CONFIRMATIONS_PER_HOUR, hour, nowMs))
    ) {
      for (const done of counted) await release(db, done, nowMs);
      return false;
    }
  }
  return true;
}

/** Deletes the address's counters, for an address that must not be kept (newsletter purge). */
export async function forgetMailTo(db: Db, email: string): Promise<void> {
  const keys = (Object.keys(RECIPIENT_MAIL_LIMITS) as MailBudget[]).flatMap((budget) =>
    RECIPIENT_MAIL_LIMITS[budget].map((limit) => counterKey(budget, limit.window, email)),
  );
  await db.deleteFrom('rate_limits').where('key', 'in', keys).execute();
}

function counterKey(budget: MailBudget, window: string, email: string): string {
  // The account budget keeps the keys it had before the budgets were split.
  const prefix = budget === 'account' ? 'mail' : `mail:${budget}`;
  return `${prefix}:${window}:${email.toLowerCase()}`;
}
