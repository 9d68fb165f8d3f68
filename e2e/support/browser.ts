import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { presetConsent } from './consent.js';

const FAILED_RESOURCE = /Failed to load resource: the server responded with a status of (\d+)/;

/**
 * Collects what a page logs as an error or throws. The browser logs every HTTP error answer too;
 * a flow that provokes one on purpose (newInvitedAccountRequired, newPasswordRequired) names it.
 */
export function watchConsole(page: Page, allowedStatuses: number[] = []): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = FAILED_RESOURCE.exec(message.text())?.[1];
    if (status !== undefined && allowedStatuses.includes(Number(status))) return;
    errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/**
 * Another person's browser: a context of its own (storage, session). Closing it fails the test
 * if its page logged an error.
 */
export async function otherBrowser(
  browser: Browser,
  baseURL: string | undefined,
  options: BrowserContextOptions = {},
  allowedStatuses: number[] = [],
) {
  const context = await browser.newContext({ baseURL, ...options });
  if (options.storageState === undefined) await presetConsent(context, baseURL, false);
  const page = await context.newPage();
  const errors = watchConsole(page, allowedStatuses);
  return {
    page,
    close: async () => {
      await context.close();
      expect(errors).toEqual([]);
    },
  };
}
