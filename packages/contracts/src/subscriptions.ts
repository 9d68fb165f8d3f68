import { z } from 'zod';

/**
 * Newsletter subscriptions (spec §7 "Newsletter"): double opt-in. An address counts as subscribed
 * only once the link of the confirmation e-mail was opened.
 */

/** POST /subscriptions (202): a confirmation e-mail is on its way; nothing counts until it is used. */
export const subscribeResponseSchema = z.object({ status: z.literal('pending') });
export type SubscribeResponse = z.infer<typeof subscribeResponseSchema>;

/**
 * POST /subscriptions/confirm: `confirmed`, the address now receives the newsletter;
 * `alreadyConfirmed`, a link of an address confirmed before (a second click, an older link).
 */
export const confirmSubscriptionResponseSchema = z.object({
  status: z.enum(['confirmed', 'alreadyConfirmed']),
});
export type ConfirmSubscriptionResponse = z.infer<typeof confirmSubscriptionResponseSchema>;

/** POST /subscriptions/unsubscribe: no newsletter is sent to the address any more. */
export const unsubscribeResponseSchema = z.object({ status: z.literal('unsubscribed') });
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponseSchema>;
