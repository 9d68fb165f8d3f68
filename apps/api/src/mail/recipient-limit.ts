import { reserve } from '../auth/rate-limiter.js';
import type { Db } from '../db/create-db.js';

/**
 * How many account mails (verification links, reset links) one address may be sent, so no one
 * can flood a mailbox through the anonymous routes that send them. Counted in the database
 * (`rate_limits`), so every API process and the worker share the count.
 */
export const RECIPIENT_MAIL_LIMITS = [
  { window: 'hour', max: 5, ms: 60 * 60_000 },
  { window: 'day', max: 20, ms: 24 * 60 * 60_000 },
] as const;

/**
 * Counts one mail to `email` if both windows have room: false when either is full, and then the
 * caller sends nothing (and answers as if it had, so the limit reveals nothing either).
 */
export async function reserveMailTo(db: Db, email: string, nowMs: number): Promise<boolean> {
  for (const limit of RECIPIENT_MAIL_LIMITS) {
    if (!(await reserve(db, counterKey(limit.window, email), limit.max, limit.ms, nowMs)))
      return false;
  }
  return true;
}

/** Deletes the address's counters, for an address that must not be kept (newsletter purge). */
export async function forgetMailTo(db: Db, email: string): Promise<void> {
  const keys = RECIPIENT_MAIL_LIMITS.map((limit) => counterKey(limit.window, email));
  await db.deleteFrom('rate_limits').where('key', 'in', keys).execute();
}

function counterKey(window: string, email: string): string {
  return `mail:${window}:${email.toLowerCase()}`;
}
