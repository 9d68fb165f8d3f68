import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/test.js';
import { createVerifiedAccount, newAccount, type Account } from '../support/accounts.js';
import { otherBrowser } from '../support/browser.js';
import { waitForMail } from '../support/mailbox.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

async function signIn(page: Page, account: Account): Promise<void> {
  await page.goto('/auth/signin');
  await page.getByLabel('E-mail or username').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/teams$/);
}

test.describe('sessions', () => {
  test.use({
    userAgent: CHROME_WINDOWS,
    colorScheme: 'dark',
    viewport: { width: 375, height: 740 },
  });

  test('sees both devices, signs the other out, and a new-device e-mail arrives', async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    const account = newAccount('sessions');
    await createVerifiedAccount(request, account);
    await signIn(page, account);

    // The other device: another browser, signed in second, so its sign-in is from a new device.
    const other = await otherBrowser(browser, baseURL, { userAgent: FIREFOX_LINUX }, [401]);
    await signIn(other.page, account);
    const mail = await waitForMail(account.email, /New sign-in/);
    expect(mail.text).toContain('Firefox on Linux');
    expect(mail.text).toContain("This wasn't you?");

    await page.goto('/profile');
    const sessions = page.getByTestId('session');
    await expect(sessions).toHaveCount(2);
    const mine = sessions.filter({ hasText: 'This device' });
    await expect(mine).toContainText('Chrome on Windows');
    await expect(mine).toContainText('Last active now');
    const theirs = sessions.filter({ hasText: 'Firefox on Linux' });
    await expect(theirs).toContainText('Last active now');
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeVisible();
    // No horizontal scrolling at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await page.getByRole('heading', { name: 'Sessions' }).scrollIntoViewIfNeeded();
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}sessions-profile-phone-dark.png`,
      fullPage: true,
    });

    // The cookie button floats in the room kept at the end of the profile, never over the
    // Sessions section: while that room is only partly in view it waits below the screen.
    const cookieButton = page.getByRole('button', { name: 'Change your cookie choice' });
    const main = page.locator('main');
    const height = await page.evaluate(() => window.innerHeight);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(
      height + 100,
    );
    await page.evaluate(() =>
      window.scrollTo(0, document.documentElement.scrollHeight - window.innerHeight - 40),
    );
    await expect
      .poll(async () => (await cookieButton.boundingBox())?.y ?? 0)
      .toBeGreaterThanOrEqual(height);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect
      .poll(async () => (await cookieButton.boundingBox())?.y ?? height)
      .toBeLessThan(height - 40);
    const fab = await cookieButton.boundingBox();
    const content = await main.boundingBox();
    expect(fab && content && fab.y >= content.y + content.height).toBe(true);
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}sessions-profile-end-phone-dark.png`,
    });

    await page.getByRole('button', { name: 'Sign out Firefox on Linux' }).click();
    await expect(page.getByText('Firefox on Linux has been signed out.')).toBeVisible();
    await expect(sessions).toHaveCount(1);
    await expect(page.getByText('No other device is signed in.')).toBeVisible();

    // The other browser's next action finds itself signed out.
    await other.page.goto('/profile');
    await expect(other.page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
    await expect(other.page).toHaveURL(/\/auth\/signin/);
    expect(await other.page.evaluate(() => localStorage.getItem('AccessToken'))).toBeNull();
    await other.close();

    // This device is still signed in.
    await page.reload();
    await expect(page.getByTestId('session')).toHaveCount(1);
  });
});
