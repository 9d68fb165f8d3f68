import { expect, type APIRequestContext } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.js';

export interface Account {
  email: string;
  password: string;
  nickname: string;
}

/** A new address per call: the specs share one database for the whole run. */
export function newAccount(prefix: string): Account {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return { email: `${prefix}.${unique}@example.test`, password: 'Secret-pass-1', nickname: 'Ada' };
}

/** The query of the verification link e-mailed to `email`, as the web app would read it. */
export async function verificationLink(email: string): Promise<URL> {
  return new URL(linkIn(await waitForMail(email, /Confirm your e-mail address/), '/auth/verify'));
}

/** Signs up and verifies through the API, for specs whose subject is what comes after. */
export async function createVerifiedAccount(
  request: APIRequestContext,
  account: Account,
): Promise<void> {
  const signUp = await request.post('/api/auth/signup', { data: { ...account, locale: 'en' } });
  expect(signUp.status()).toBe(201);
  const link = await verificationLink(account.email);
  const verify = await request.post('/api/auth/verify-email', {
    data: Object.fromEntries(link.searchParams),
  });
  expect(verify.status()).toBe(200);
}
