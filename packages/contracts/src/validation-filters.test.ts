import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  confirmSubscriptionRequestSchema,
  dateRangeSchema,
  subscribeFormSchema,
  subscribeRequestSchema,
  unsubscribeRequestSchema,
} from './validation-filters.js';

function issues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('date range filter', () => {
  it('accepts open and ordered ranges, bounds inclusive', () => {
    expect(dateRangeSchema.parse({})).toEqual({});
    expect(dateRangeSchema.parse({ from: 1000 })).toEqual({ from: 1000 });
    expect(dateRangeSchema.parse({ from: 1000, to: 2000 })).toEqual({ from: 1000, to: 2000 });
    expect(dateRangeSchema.parse({ from: 1000, to: 1000 })).toEqual({ from: 1000, to: 1000 });
  });
  it('reads query-string numbers', () => {
    expect(dateRangeSchema.parse({ from: '1000', to: '2000' })).toEqual({ from: 1000, to: 2000 });
  });
  it('puts filterStartEndDateInvalid on both fields when from is after to', () => {
    expect(issues(dateRangeSchema, { from: 2000, to: 1000 })).toEqual([
      'from: filterStartEndDateInvalid',
      'to: filterStartEndDateInvalid',
    ]);
  });
  it('rejects values that are not epoch milliseconds', () => {
    expect(issues(dateRangeSchema, { from: 'yesterday' })).toEqual(['from: filterDateInvalid']);
    expect(issues(dateRangeSchema, { to: -1 })).toEqual(['to: filterDateInvalid']);
    expect(issues(dateRangeSchema, { to: 1.5 })).toEqual(['to: filterDateInvalid']);
  });
});

describe('newsletter', () => {
  it('the subscribe form needs an e-mail and the terms checkbox', () => {
    expect(subscribeFormSchema.parse({ email: 'zoe@example.it', terms: true })).toEqual({
      email: 'zoe@example.it',
      terms: true,
    });
    expect(issues(subscribeFormSchema, { email: 'zoe@example.it', terms: false })).toEqual([
      'terms: termsRequired',
    ]);
  });
  it('the subscribe body records the accepted versions', () => {
    const body = {
      email: 'zoe@example.it',
      termsVersion: '2025-03-05',
      privacyVersion: '2025-03-05',
    };
    expect(subscribeRequestSchema.parse(body)).toEqual(body);
    expect(issues(subscribeRequestSchema, { email: 'zoe@example.it' })).toEqual([
      'termsVersion: termsRequired',
      'privacyVersion: termsRequired',
    ]);
    expect(subscribeRequestSchema.parse({ ...body, locale: 'it' })).toEqual({
      ...body,
      locale: 'it',
    });
    expect(issues(subscribeRequestSchema, { ...body, locale: 'fr' })).toEqual([
      'locale: localeRequired',
    ]);
  });
  it('a confirmation link needs its e-mail and token, else the whole link is invalid', () => {
    const link = { email: 'zoe@example.it', token: 't' };
    expect(confirmSubscriptionRequestSchema.parse(link)).toEqual(link);
    expect(issues(confirmSubscriptionRequestSchema, { token: 't' })).toEqual([
      'email: invalidSubscriptionConfirmation',
    ]);
    expect(issues(confirmSubscriptionRequestSchema, { ...link, email: 'zoe' })).toEqual([
      'email: invalidSubscriptionConfirmation',
    ]);
    expect(issues(confirmSubscriptionRequestSchema, { ...link, token: 'a\u0000b' })).toEqual([
      'token: invalidSubscriptionConfirmation',
    ]);
  });
  it('an unsubscribe link needs its e-mail and token', () => {
    expect(unsubscribeRequestSchema.parse({ email: 'zoe@example.it', token: 't' })).toEqual({
      email: 'zoe@example.it',
      token: 't',
    });
    expect(issues(unsubscribeRequestSchema, { email: 'zoe@example.it' })).toEqual([
      'token: invalidUnsubscribe',
    ]);
  });
});
