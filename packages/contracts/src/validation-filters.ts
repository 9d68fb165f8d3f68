import { z } from 'zod';
import type { ValidationMessageKey } from './messages.js';
import {
  bodySchema,
  emailSchema,
  linkEmailSchema,
  linkParamSchema,
  localeSchema,
  opaqueStringSchema,
  subscribeTermsSchema,
} from './validation-fields.js';

/** The list date filter and the newsletter bodies. */

// Date filter
const DATE_FAIL = { error: 'filterDateInvalid', abort: true } as const;

/** Epoch milliseconds; coerced because list filters arrive as query strings. */
export const epochMsSchema = z.coerce
  .number({ error: 'filterDateInvalid' })
  .int(DATE_FAIL)
  .nonnegative(DATE_FAIL);

const START_AFTER_END: ValidationMessageKey = 'filterStartEndDateInvalid';

/** Both bounds inclusive and optional; when from is after to, both fields carry the error. */
export const dateRangeSchema = bodySchema({
  from: epochMsSchema.optional(),
  to: epochMsSchema.optional(),
}).superRefine((range, ctx) => {
  if (range.from === undefined || range.to === undefined || range.from <= range.to) return;
  ctx.addIssue({ code: 'custom', message: START_AFTER_END, path: ['from'] });
  ctx.addIssue({ code: 'custom', message: START_AFTER_END, path: ['to'] });
});
export type DateRange = z.infer<typeof dateRangeSchema>;

// Newsletter
export const subscribeFormSchema = bodySchema({
  email: emailSchema,
  terms: subscribeTermsSchema,
});
export type SubscribeForm = z.infer<typeof subscribeFormSchema>;

/**
 * POST /subscriptions: the versions record which terms and privacy texts were accepted; only the
 * ones in force (LEGAL_VERSIONS) are taken. `locale`, not in the spec's payload, is the language of
 * the confirmation e-mail and of the newsletter (without it, the request's Accept-Language).
 */
export const subscribeRequestSchema = bodySchema({
  email: emailSchema,
  termsVersion: opaqueStringSchema('termsRequired', 64),
  privacyVersion: opaqueStringSchema('termsRequired', 64),
  locale: localeSchema.optional(),
});
export type SubscribeRequest = z.infer<typeof subscribeRequestSchema>;

/** The query of /unsubscribe and the body of POST /subscriptions/unsubscribe. */
export const unsubscribeRequestSchema = bodySchema({
  email: linkEmailSchema('invalidUnsubscribe'),
  token: linkParamSchema('invalidUnsubscribe'),
});
export type UnsubscribeRequest = z.infer<typeof unsubscribeRequestSchema>;
export const unsubscribeLinkQuerySchema = unsubscribeRequestSchema;

/** The query of /newsletter/confirm and the body of POST /subscriptions/confirm (double opt-in). */
export const confirmSubscriptionRequestSchema = bodySchema({
  email: linkEmailSchema('invalidSubscriptionConfirmation'),
  token: linkParamSchema('invalidSubscriptionConfirmation'),
});
export type ConfirmSubscriptionRequest = z.infer<typeof confirmSubscriptionRequestSchema>;
export const confirmSubscriptionLinkQuerySchema = confirmSubscriptionRequestSchema;
