import { test as base, expect } from './servers.js';
import { watchConsole } from './browser.js';
import { presetConsent } from './consent.js';

/**
 * Playwright's test, failing any test whose main page logged an error or threw. A test that
 * provokes an HTTP error answer on purpose names its status in `allowedStatuses`. Its context
 * starts with the cookie choice `consent` (declined unless a spec says otherwise; null: not chosen).
 */
export const test = base.extend<{
  pageErrors: string[];
  allowedStatuses: number[];
  consent: boolean | null;
}>({
  allowedStatuses: [[], { option: true }],
  consent: [false, { option: true }],
  context: async ({ context, consent, baseURL }, use) => {
    if (consent !== null) await presetConsent(context, baseURL, consent);
    await use(context);
  },
  pageErrors: [
    async ({ page, allowedStatuses }, use) => {
      const errors = watchConsole(page, allowedStatuses);
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
