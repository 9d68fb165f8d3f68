import { createHmac } from 'node:crypto';
import type { Locale } from '@raccolta/contracts';
import { webLink } from '../auth/links.js';
import { deriveKey, safeEqual } from '../auth/secrets.js';
import type { Config } from '../config/config.js';
import type { UnsubscribeLinks } from '../mail/layout.js';

/** How every newsletter flow compares addresses: trimmed, lower-cased (as accounts do). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The unsubscribe token of an address: HMAC-SHA256 of the normalised address under a key derived
 * for this purpose only. Stable, so every newsletter e-mail carries the same link and nothing is
 * stored; a token of one address says nothing about another's.
 */
export function unsubscribeToken(secret: string, email: string): string {
  return createHmac('sha256', deriveKey(secret, 'newsletter-unsubscribe'))
    .update(normaliseEmail(email))
    .digest('base64url');
}

export function isUnsubscribeToken(secret: string, email: string, token: string): boolean {
  return safeEqual(token, unsubscribeToken(secret, email));
}

/**
 * The token of a confirmation link: when it was issued (base 36) and the HMAC-SHA256 of the
 * address and that instant under a key derived for this purpose only. Nothing is stored, so every
 * link sent to a pending address works until it expires (a second subscription does not kill the
 * first link), and a link proves it was sent to that address.
 */
export function confirmToken(secret: string, email: string, issuedAt: number): string {
  const mac = createHmac('sha256', deriveKey(secret, 'newsletter-confirm'))
    .update(`${normaliseEmail(email)}\n${issuedAt}`)
    .digest('base64url');
  return `${issuedAt.toString(36)}.${mac}`;
}

/** When the confirmation token of this address was issued; null when it is not one of ours. */
export function confirmTokenIssuedAt(secret: string, email: string, token: string): number | null {
  const match = /^([0-9a-z]{1,12})\.[A-Za-z0-9_-]{43}$/.exec(token);
  if (!match?.[1]) return null;
  const issuedAt = parseInt(match[1], 36);
  return safeEqual(token, confirmToken(secret, email, issuedAt)) ? issuedAt : null;
}

/** An absolute URL of the API (`API_PUBLIC_URL`, by default `PUBLIC_URL/api`). */
function apiLink(config: Config, path: string, params: Record<string, string>): string {
  const url = new URL(`${config.apiPublicUrl}${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * The web page `/unsubscribe?email&token` for the footer of every newsletter e-mail, and the
 * same query on the API route for RFC 8058 one-click POSTs (List-Unsubscribe).
 */
export function unsubscribeLinks(config: Config, email: string): UnsubscribeLinks {
  const params = { email, token: unsubscribeToken(config.secret, email) };
  return {
    page: webLink(config, '/unsubscribe', params),
    oneClick: apiLink(config, '/subscriptions/unsubscribe', params),
  };
}

/** The web page of the confirmation e-mail; it POSTs the token (a mail scanner's GET confirms nothing). */
export function confirmLink(config: Config, email: string, token: string): string {
  return webLink(config, '/newsletter/confirm', { email, token });
}

/**
 * The language of a request without a `locale`: Italian when any language it accepts is
 * Italian, as the web app chooses from the browser's list (spec §1); English otherwise.
 */
export function localeOfAcceptLanguage(header: string | undefined): Locale {
  const tags = (header ?? '').split(',').map((part) => part.split(';')[0]?.trim().toLowerCase());
  return tags.some((tag) => tag?.split(/[-_]/)[0] === 'it') ? 'it' : 'en';
}
