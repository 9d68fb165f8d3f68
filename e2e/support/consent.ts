import type { BrowserContext } from '@playwright/test';

/** The web app's consent cookie (apps/web/src/features/consent). */
export const CONSENT_COOKIE = 'CookieConsent';

/**
 * This worker's fake analytics service (support/analytics-server.ts); support/servers.ts sets the
 * port when the worker starts.
 */
export const analyticsOrigin = () => `http://127.0.0.1:${process.env.E2E_ANALYTICS_PORT ?? ''}`;

/**
 * Sets the cookie choice before any page loads, as a returning visitor would have it. Specs that
 * do not test consent start declined, so no banner stands in their way and no analytics loads.
 */
export async function presetConsent(
  context: BrowserContext,
  baseURL: string | undefined,
  accepted: boolean,
): Promise<void> {
  if (baseURL === undefined) throw new Error('presetConsent needs the baseURL');
  await context.addCookies([
    { name: CONSENT_COOKIE, value: String(accepted), url: baseURL, sameSite: 'Lax' },
  ]);
}
