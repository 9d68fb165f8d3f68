import {
  LEGAL_VERSIONS,
  type ConfirmSubscriptionRequest,
  type Locale,
  type SubscribeRequest,
  type UnsubscribeRequest,
} from '@raccolta/contracts';
import { hashToken, safeEqual } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { reserveMailTo } from '../mail/recipient-limit.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import {
  confirmLink,
  confirmToken,
  confirmTokenIssuedAt,
  isUnsubscribeToken,
  normaliseEmail,
} from './subscription-links.js';
import { enqueueWelcome } from './newsletter-mail.js';
import {
  deleteNewsletterMailJobs,
  findSubscriptionByEmail,
  insertPendingSubscription,
  markConfirmed,
  newsletterMailKey,
  updateSubscription,
  type SubscriptionRow,
} from './subscriptions.repository.js';

const HOUR_MS = 60 * 60_000;

/**
 * How long a confirmation link works. A pending subscription whose link was not used by then is
 * deleted by the purge, so an address someone else typed in is not kept.
 */
export const SUBSCRIPTION_CONFIRM_TTL_HOURS = 48;
const CONFIRM_TTL_MS = SUBSCRIPTION_CONFIRM_TTL_HOURS * HOUR_MS;

/**
 * How long an unsubscribed address is kept before the purge deletes it: a second click on the
 * link meanwhile still answers that it is unsubscribed. Spec §9 allows 5 days at most; see
 * purge-subscriptions.job.ts for why the deadline holds.
 */
export const UNSUBSCRIBED_GRACE_MS = 24 * HOUR_MS;

/**
 * POST /subscriptions. Double opt-in: a new address (or one unsubscribed before) becomes a pending
 * subscription and gets a confirmation e-mail; a pending one gets another link (older links keep
 * working until they expire); a confirmed one is `alreadySubscribed`. Confirmation mails count against the
 * recipient's mail limit: over it nothing is sent and the answer is the same.
 */
export async function subscribe(
  ctx: AppContext,
  input: SubscribeRequest,
  locale: Locale,
): Promise<void> {
  if (
    input.termsVersion !== LEGAL_VERSIONS.terms ||
    input.privacyVersion !== LEGAL_VERSIONS.privacy
  )
    throw new AppError('termsRequired', {
      message: 'The terms and privacy versions in force must be accepted',
    });
  const email = normaliseEmail(input.email);
  const now = ctx.clock();
  const accepted = {
    locale,
    termsVersion: input.termsVersion,
    privacyVersion: input.privacyVersion,
  };
  await ctx.db.transaction().execute(async (trx) => {
    const row =
      (await findSubscriptionByEmail(trx, email)) ??
      (await insertPendingSubscription(trx, { email, ...accepted }, now + CONFIRM_TTL_MS, now)) ??
      // Made by a concurrent request between the two statements.
      (await findSubscriptionByEmail(trx, email));
    if (!row) throw new Error('the subscription of this address is gone');
    if (row.status === 'confirmed') throw new AppError('alreadySubscribed');
    await updateSubscription(trx, row.id, {
      status: 'pending',
      locale: accepted.locale,
      terms_version: accepted.termsVersion,
      privacy_version: accepted.privacyVersion,
      accepted_at: now,
      confirmed_at: null,
      unsubscribed_at: null,
      expires_at: now + CONFIRM_TTL_MS,
      updated_at: now,
    });
    await sendConfirmation(ctx, trx, row, locale, now);
  });
}

/**
 * A confirmation link, when the recipient's mail limit allows one. Links are signed, not stored
 * (subscription-links.ts): the ones sent before keep working until they expire.
 */
async function sendConfirmation(
  ctx: AppContext,
  trx: Db,
  row: SubscriptionRow,
  locale: Locale,
  now: number,
): Promise<void> {
  if (!(await reserveMailTo(trx, row.email, now, 'newsletter'))) return;
  const token = confirmToken(ctx.config.secret, row.email, now);
  await enqueueMail(
    trx,
    {
      to: row.email,
      locale,
      template: 'subscriptionConfirm',
      vars: {
        link: confirmLink(ctx.config, row.email, token),
        validHours: SUBSCRIPTION_CONFIRM_TTL_HOURS,
      },
    },
    ctx.clock,
    { dedupeKey: newsletterMailKey(row.id, `confirm:${newId()}`) },
  );
}

/**
 * Whether `token` is a confirmation link of this subscription still in time: a signed one sent
 * within the last 48 hours, or the random one stored by earlier versions (links mailed before
 * signed ones, until they expire).
 */
function linkInTime(ctx: AppContext, row: SubscriptionRow, token: string, now: number): boolean {
  const issuedAt = confirmTokenIssuedAt(ctx.config.secret, row.email, token);
  if (issuedAt !== null) return issuedAt <= now && now < issuedAt + CONFIRM_TTL_MS;
  return (
    row.confirm_token_hash !== null &&
    safeEqual(row.confirm_token_hash, hashToken(token)) &&
    (row.expires_at ?? 0) > now
  );
}

/** Whether `token` was ever a confirmation link of this address, in time or not. */
function linkOfAddress(ctx: AppContext, row: SubscriptionRow, token: string): boolean {
  return (
    confirmTokenIssuedAt(ctx.config.secret, row.email, token) !== null ||
    (row.confirm_token_hash !== null && safeEqual(row.confirm_token_hash, hashToken(token)))
  );
}

/**
 * POST /subscriptions/confirm, from the page the confirmation e-mail links to. Any link of a
 * pending address still in time confirms it: the address counts from now on, and its welcome
 * e-mail (the first newsletter e-mail) is queued. A link of an address already confirmed, used
 * again or older, answers `alreadyConfirmed`. A wrong or expired link, or one of an address no
 * longer subscribed, is `invalidSubscriptionConfirmation`.
 */
export async function confirmSubscription(
  ctx: AppContext,
  input: ConfirmSubscriptionRequest,
): Promise<'confirmed' | 'alreadyConfirmed'> {
  const email = normaliseEmail(input.email);
  const now = ctx.clock();
  const invalid = () =>
    new AppError('invalidSubscriptionConfirmation', {
      message: 'The confirmation link is wrong or expired',
    });
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const row = await findSubscriptionByEmail(trx, email);
    if (!row || !linkOfAddress(ctx, row, input.token)) throw invalid();
    if (row.status === 'confirmed') return 'alreadyConfirmed' as const;
    if (row.status !== 'pending' || !linkInTime(ctx, row, input.token, now)) throw invalid();
    if (!(await markConfirmed(trx, row.id, now))) return null;
    await enqueueWelcome(ctx, trx, row);
    return 'confirmed' as const;
  });
  if (outcome !== null) return outcome;
  // Confirmed by a concurrent request between the read and the update.
  const row = await findSubscriptionByEmail(ctx.db, email);
  if (row?.status !== 'confirmed') throw invalid();
  return 'alreadyConfirmed';
}

/**
 * POST /subscriptions/unsubscribe, from a newsletter e-mail's link or a mail client's one-click
 * POST (RFC 8058). The token is the address's HMAC: a wrong one is `invalidUnsubscribe`; an
 * address with no subscription (never subscribed, or already purged) is `cannotUnsubscribe`.
 * Unsubscribing again answers the same. Newsletter mail still queued for the address is dropped.
 */
export async function unsubscribe(ctx: AppContext, input: UnsubscribeRequest): Promise<void> {
  const email = normaliseEmail(input.email);
  if (!isUnsubscribeToken(ctx.config.secret, email, input.token))
    throw new AppError('invalidUnsubscribe', { message: 'The unsubscribe link is not valid' });
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findSubscriptionByEmail(trx, email);
    if (!row) throw new AppError('cannotUnsubscribe', { message: 'Subscription not found' });
    if (row.status === 'unsubscribed') return;
    await updateSubscription(trx, row.id, {
      status: 'unsubscribed',
      confirm_token_hash: null,
      unsubscribed_at: now,
      expires_at: now + UNSUBSCRIBED_GRACE_MS,
      updated_at: now,
    });
    await deleteNewsletterMailJobs(trx, [newsletterMailKey(row.id, '')], ['pending']);
  });
}
