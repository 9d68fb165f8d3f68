import { test as base, expect } from '@playwright/test';
import { watchConsole } from './browser.js';
import { presetConsent } from './consent.js';

/**
 * Playwright's test, failing any test whose main page logged an error or threw. Its context starts
 * with the cookie choice `consent` (declined unless a spec says otherwise; null: not chosen).
 */
export const test = base.extend<{ pageErrors: string[]; consent: boolean | null }>({
  consent: [false, { option: true }],
  context: async ({ context, consent, baseURL }, use) => {
    if (consent !== null) await presetConsent(context, baseURL, consent);
    await use(context);
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors = watchConsole(page);
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
