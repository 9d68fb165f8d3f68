import { CONSENT_COOKIE_MAX_AGE_DAYS } from '@raccolta/contracts';

/** The cookie-consent cookie of spec §3: 'true' (accepted) or 'false' (declined). */
export const CONSENT_COOKIE_NAME = 'CookieConsent';

/** null: the visitor has not chosen yet. */
export type ConsentChoice = boolean | null;

const MAX_AGE_SECONDS = CONSENT_COOKIE_MAX_AGE_DAYS * 24 * 60 * 60;

/** The choice kept in a `document.cookie` string; anything but 'true' or 'false' is no choice. */
export function readConsent(cookies: string): ConsentChoice {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== CONSENT_COOKIE_NAME) continue;
    const value = part.slice(eq + 1).trim();
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  return null;
}

function attributes(maxAgeSeconds: number, secure: boolean): string {
  return `; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The `document.cookie` assignment that keeps a choice for 365 days (Secure on https). */
export function consentCookie(accepted: boolean, secure: boolean): string {
  return `${CONSENT_COOKIE_NAME}=${String(accepted)}${attributes(MAX_AGE_SECONDS, secure)}`;
}

/** The `document.cookie` assignment that forgets the choice. */
export function clearedConsentCookie(secure: boolean): string {
  return `${CONSENT_COOKIE_NAME}=${attributes(0, secure)}`;
}

/**
 * How far down the page the visitor has scrolled, in percent of what can be scrolled; 0 for a
 * page that does not scroll (there is nothing to read further down, so no implied acceptance).
 */
export function scrolledPercentage(
  scrollTop: number,
  scrollHeight: number,
  clientHeight: number,
): number {
  const scrollable = scrollHeight - clientHeight;
  if (scrollable <= 0) return 0;
  return Math.min(100, Math.max(0, (scrollTop / scrollable) * 100));
}
