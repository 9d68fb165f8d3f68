import { describe, expect, it } from 'vitest';
import {
  clearedConsentCookie,
  CONSENT_COOKIE_NAME,
  consentCookie,
  readConsent,
  scrolledPercentage,
} from './consent-cookie';

describe('the consent cookie', () => {
  it('reads true, false, or no choice from the cookie string', () => {
    expect(readConsent('')).toBeNull();
    expect(readConsent('theme=dark; CookieConsent=true')).toBe(true);
    expect(readConsent('CookieConsent=false;other=1')).toBe(false);
    expect(readConsent('CookieConsent=')).toBeNull();
    expect(readConsent('CookieConsent=maybe')).toBeNull();
    expect(readConsent('XCookieConsent=true; CookieConsentX=true')).toBeNull();
  });

  it('keeps a choice for 365 days on the whole site, SameSite=Lax, Secure only on https', () => {
    expect(consentCookie(true, false)).toBe(
      `${CONSENT_COOKIE_NAME}=true; Max-Age=31536000; Path=/; SameSite=Lax`,
    );
    expect(consentCookie(false, true)).toBe(
      `${CONSENT_COOKIE_NAME}=false; Max-Age=31536000; Path=/; SameSite=Lax; Secure`,
    );
  });

  it('forgets the choice with the same path, so the browser drops the same cookie', () => {
    expect(clearedConsentCookie(true)).toBe(
      `${CONSENT_COOKIE_NAME}=; Max-Age=0; Path=/; SameSite=Lax; Secure`,
    );
  });

  it('round-trips through a real document.cookie', () => {
    document.cookie = consentCookie(true, false);
    expect(readConsent(document.cookie)).toBe(true);
    document.cookie = consentCookie(false, false);
    expect(readConsent(document.cookie)).toBe(false);
    document.cookie = clearedConsentCookie(false);
    expect(readConsent(document.cookie)).toBeNull();
  });

  it('measures scrolling against what can be scrolled', () => {
    expect(scrolledPercentage(0, 800, 800)).toBe(0);
    expect(scrolledPercentage(250, 2000, 1000)).toBe(25);
    expect(scrolledPercentage(249, 2000, 1000)).toBeLessThan(25);
    expect(scrolledPercentage(5000, 2000, 1000)).toBe(100);
  });
});
