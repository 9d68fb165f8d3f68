import { test as base, expect } from '@playwright/test';
import { watchConsole } from './browser.js';

/** Playwright's test, failing any test whose main page logged an error or threw. */
export const test = base.extend<{ pageErrors: string[] }>({
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
