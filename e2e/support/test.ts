import { test as base, expect } from '@playwright/test';
import { watchConsole } from './browser.js';

/**
 * Playwright's test, failing any test whose main page logged an error or threw. A test that
 * provokes an HTTP error answer on purpose names its status in `allowedStatuses`.
 */
export const test = base.extend<{ pageErrors: string[]; allowedStatuses: number[] }>({
  allowedStatuses: [[], { option: true }],
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
