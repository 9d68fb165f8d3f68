import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { test, expect } from '../support/test.js';
import { createVerifiedAccount, newAccount, type Account } from '../support/accounts.js';
import { otherBrowser } from '../support/browser.js';
import { ageSessions } from '../support/database.js';
import { waitForMail } from '../support/mailbox.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

/** The code an authenticator app would show now, at `offsetSteps` 30-second steps from now. */
function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

async function submitPassword(page: Page, account: Account): Promise<void> {
  await page.goto('/auth/signin');
  await page.getByLabel('E-mail or username').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signIn(page: Page, account: Account): Promise<void> {
  await submitPassword(page, account);
  await expect(page).toHaveURL(/\/teams$/);
}

test.describe('second factors', () => {
  // The wrong code typed on purpose answers 400.
  test.use({ viewport: { width: 375, height: 740 }, colorScheme: 'dark', allowedStatuses: [400] });

  // Passkeys: passkeys.spec.ts, with a virtual authenticator, on an app reached as localhost.
  test('an authenticator app and a recovery code guard the sign-in', async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    const account = newAccount('totp');
    await createVerifiedAccount(request, account);
    await signIn(page, account);

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(
      page.getByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    // A wrong code is refused and the form stays.
    await page.getByLabel('Code from the authenticator app').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.getByLabel('Code from the authenticator app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recoveryCode = (await codes.first().textContent())?.trim() ?? '';
    expect(recoveryCode.length).toBeGreaterThan(5);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page.getByText('On: sign-in asks for a code from your app.')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await waitForMail(account.email, /two-step verification was changed/);

    // Another browser: the password alone no longer signs in.
    const other = await otherBrowser(browser, baseURL, { colorScheme: 'dark' }, [403]);
    await submitPassword(other.page, account);
    await expect(other.page.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible();
    // Only the ways this account has: no passkey is offered.
    await expect(
      other.page.getByText('Enter a code from your authenticator app.', { exact: false }),
    ).toBeVisible();
    await expect(other.page.getByRole('button', { name: 'Use a passkey' })).toHaveCount(0);
    await other.page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}second-factor-step-phone-dark.png`,
      fullPage: true,
    });
    // The next step's code: the one used to turn the app on is refused again in its step.
    await other.page.getByLabel('Code from the authenticator app').fill(totpCode(secret, 1));
    await other.page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(other.page).toHaveURL(/\/teams$/);
    await other.close();

    // A recovery code signs in once.
    const third = await otherBrowser(browser, baseURL, {}, [400, 401, 403]);
    await submitPassword(third.page, account);
    await third.page.getByRole('button', { name: 'Use a recovery code' }).click();
    await third.page.getByLabel('Recovery code').fill(recoveryCode);
    await third.page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(third.page).toHaveURL(/\/teams$/);
    await third.close();

    const fourth = await otherBrowser(browser, baseURL, {}, [400, 401, 403]);
    await submitPassword(fourth.page, account);
    await fourth.page.getByRole('button', { name: 'Use a recovery code' }).click();
    await fourth.page.getByLabel('Recovery code').fill(recoveryCode);
    await fourth.page.getByRole('button', { name: 'Verify and sign in' }).click();
    await expect(fourth.page.getByRole('alert')).toBeVisible();
    await expect(fourth.page).toHaveURL(/\/auth\/signin/);
    await fourth.close();
  });
  test.describe('confirming it is you', () => {
    // The refused change (403) and the wrong password typed on purpose (401).
    test.use({ allowedStatuses: [401, 403] });

    test('a change long after the sign-in asks for the password first', async ({
      page,
      request,
    }) => {
      const account = newAccount('reauth');
      await createVerifiedAccount(request, account);
      await signIn(page, account);
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
      await page.getByLabel('Code from the authenticator app').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Turn on' }).click();
      await page.getByRole('button', { name: 'I have saved them' }).click();

      // Eleven minutes later (the sign-in must be within ten), new recovery codes need the password.
      ageSessions(account.email, 11 * 60_000);
      await page.getByRole('button', { name: 'Generate new codes' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
      await expect(
        dialog.getByText('Enter your password to change how you sign in.', { exact: false }),
      ).toBeVisible();
      await page.screenshot({
        animations: 'disabled',
        path: `${SCREENSHOT_DIR}reauthenticate-phone-dark.png`,
      });
      // A wrong password is said so, and the session goes on.
      await dialog.getByLabel('Password').fill('not-the-password');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(dialog.getByRole('alert')).toBeVisible();
      await dialog.getByLabel('Password').fill(account.password);
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(dialog).toBeHidden();
      const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await expect(codes).toHaveCount(10);
      await expect(page).toHaveURL(/\/profile$/);
    });
  });
});
