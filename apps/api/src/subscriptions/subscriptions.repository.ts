import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { SubscriptionsTable } from '../db/database.js';
import { newId } from '../db/ids.js';
import type { JobStatus } from '../jobs/types.js';
import { sendMailJob } from '../mail/send-mail.job.js';

export type SubscriptionRow = Selectable<SubscriptionsTable>;

export function findSubscriptionByEmail(
  db: Db,
  email: string,
): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('email', '=', email).executeTakeFirst();
}

/**
 * A pending subscription for a new address; undefined when the address has a row already (a
 * concurrent request made it). ON CONFLICT DO NOTHING rather than catching the violation, which
 * on PostgreSQL would abort the caller's transaction.
 */
export async function insertPendingSubscription(
  db: Db,
  input: { email: string; locale: string; termsVersion: string; privacyVersion: string },
  expiresAt: number,
  now: number,
): Promise<SubscriptionRow | undefined> {
  return db
    .insertInto('subscriptions')
    .values({
      id: newId(),
      email: input.email,
      status: 'pending',
      locale: input.locale,
      terms_version: input.termsVersion,
      privacy_version: input.privacyVersion,
      accepted_at: now,
      confirm_token_hash: null,
      confirmed_at: null,
      unsubscribed_at: null,
      expires_at: expiresAt,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function updateSubscription(
  db: Db,
  id: string,
  changes: Updateable<SubscriptionsTable>,
): Promise<void> {
  await db.updateTable('subscriptions').set(changes).where('id', '=', id).execute();
}

/** The pending subscription becomes confirmed; false when it is no longer pending. */
export async function markConfirmed(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('subscriptions')
    .set({ status: 'confirmed', confirmed_at: now, expires_at: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Confirmed subscribers after `afterId` in id order, `limit` at a time (a newsletter's recipients). */
export function listConfirmedSubscriptions(
  db: Db,
  afterId: string | null,
  limit: number,
): Promise<Pick<SubscriptionRow, 'id' | 'email' | 'locale'>[]> {
  let q = db
    .selectFrom('subscriptions')
    .select(['id', 'email', 'locale'])
    .where('status', '=', 'confirmed');
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}

/**
 * Deletes up to `limit` rows whose time is up (pending links never used, unsubscribed addresses
 * past their grace) and answers which. One statement decides, so a row re-subscribed meanwhile
 * (a later expiry) is never taken.
 */
export function deleteExpiredSubscriptions(
  db: Db,
  now: number,
  limit: number,
): Promise<Pick<SubscriptionRow, 'id' | 'email'>[]> {
  return db
    .deleteFrom('subscriptions')
    .where(
      'id',
      'in',
      db
        .selectFrom('subscriptions')
        .select('id')
        .where('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(limit),
    )
    .returning(['id', 'email'])
    .execute();
}

/**
 * Every newsletter mail job carries a dedupe key `newsletter:<subscription id>:<what>`, so the
 * jobs of one subscription can be found again: to drop mail not yet sent when an address
 * unsubscribes, and to delete the address everywhere it is stored when the row is purged.
 */
const KEY_PREFIX = 'newsletter:';

export function newsletterMailKey(subscriptionId: string, what: string): string {
  return `${KEY_PREFIX}${subscriptionId}:${what}`;
}

/**
 * Deletes the newsletter mail jobs, in these statuses, whose key starts with one of the given
 * prefixes (`newsletterMailKey(id, '')` for all of a subscription's). The prefixes are of one
 * length, so one `substr(...) in (...)` finds them all in a single pass over the jobs.
 */
export async function deleteNewsletterMailJobs(
  db: Db,
  keyPrefixes: string[],
  statuses: JobStatus[],
): Promise<void> {
  const length = keyPrefixes[0]?.length;
  if (length === undefined) return;
  if (keyPrefixes.some((p) => p.length !== length || !p.startsWith(KEY_PREFIX)))
    throw new Error('newsletter job key prefixes must share one length');
  await db
    .deleteFrom('jobs')
    .where('queue', '=', sendMailJob.queue)
    .where('status', 'in', statuses)
    .where(sql<string>`substr(dedupe_key, 1, ${sql.lit(length)})`, 'in', keyPrefixes)
    .execute();
}
