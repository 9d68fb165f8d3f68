import { z } from 'zod';

/**
 * Newsletter subscriptions (spec §7 "Newsletter"): double opt-in. An address counts as subscribed
 * only once the link of the confirmation e-mail was opened.
 */

/** POST /subscriptions (202): a confirmation e-mail is on its way; nothing counts until it is used. */
export const subscribeResponseSchema = z.object({ status: z.literal('pending') });
export type SubscribeResponse = z.infer<typeof subscribeResponseSchema>;

/** POST /subscriptions/confirm: the address now receives the newsletter (again `confirmed` on a second click). */
export const confirmSubscriptionResponseSchema = z.object({ status: z.literal('confirmed') });
export type ConfirmSubscriptionResponse = z.infer<typeof confirmSubscriptionResponseSchema>;

/** POST /subscriptions/unsubscribe: no newsletter is sent to the address any more. */
export const unsubscribeResponseSchema = z.object({ status: z.literal('unsubscribed') });
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponseSchema>;
