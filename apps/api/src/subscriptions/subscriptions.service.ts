import {
  LEGAL_VERSIONS,
  type ConfirmSubscriptionRequest,
  type Locale,
  type SubscribeRequest,
  type UnsubscribeRequest,
} from '@raccolta/contracts';
import { hashToken, randomToken, safeEqual } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { reserveMailTo } from '../mail/recipient-limit.js';
import { enqueueMail } from '../mail/send-mail.job.js';
import { confirmLink, isUnsubscribeToken, normaliseEmail } from './subscription-links.js';
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
 * subscription and gets a confirmation e-mail; a pending one gets a fresh link (older links stop
 * working); a confirmed one is `alreadySubscribed`. Confirmation mails count against the
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
 * A fresh confirmation link, when the recipient's mail limit allows one (else the last link sent
 * stays the valid one). A confirmation mail still queued with an older link is dropped.
 */
async function sendConfirmation(
  ctx: AppContext,
  trx: Db,
  row: SubscriptionRow,
  locale: Locale,
  now: number,
): Promise<void> {
  if (!(await reserveMailTo(trx, row.email, now))) return;
  const token = randomToken();
  await updateSubscription(trx, row.id, { confirm_token_hash: hashToken(token) });
  await deleteNewsletterMailJobs(trx, [newsletterMailKey(row.id, 'confirm:')], ['pending']);
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
 * POST /subscriptions/confirm, from the page the confirmation e-mail links to. The address counts
 * from now on, and its welcome e-mail (the first newsletter e-mail) is queued. A second use of the
 * same link answers the same; a wrong, replaced or expired link is
 * `invalidSubscriptionConfirmation`.
 */
export async function confirmSubscription(
  ctx: AppContext,
  input: ConfirmSubscriptionRequest,
): Promise<void> {
  const email = normaliseEmail(input.email);
  const tokenHash = hashToken(input.token);
  const now = ctx.clock();
  const invalid = () =>
    new AppError('invalidSubscriptionConfirmation', {
      message: 'The confirmation link is wrong, replaced by a newer one, or expired',
    });
  const confirmed = await ctx.db.transaction().execute(async (trx) => {
    const row = await findSubscriptionByEmail(trx, email);
    if (!row?.confirm_token_hash || !safeEqual(row.confirm_token_hash, tokenHash)) throw invalid();
    if (row.status === 'confirmed') return true;
    if (!(await markConfirmed(trx, row.id, tokenHash, now))) return false;
    await enqueueWelcome(ctx, trx, row);
    return true;
  });
  if (confirmed) return;
  // Confirmed by a concurrent request with the same link: answered alike.
  const row = await findSubscriptionByEmail(ctx.db, email);
  if (row?.status !== 'confirmed' || row.confirm_token_hash !== tokenHash) throw invalid();
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
