import { fileURLToPath } from 'node:url';
import type { CDPSession, Page } from '@playwright/test';
import { test, expect } from '../support/test.js';
import { createVerifiedAccount, newAccount, type Account } from '../support/accounts.js';
import { otherBrowser } from '../support/browser.js';
import { waitForMail } from '../support/mailbox.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

/**
 * A platform authenticator that says yes (a fingerprint that always matches), through the
 * DevTools protocol's WebAuthn domain: the browser's own WebAuthn code runs, only the device is
 * simulated.
 */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

async function submitPassword(page: Page, account: Account): Promise<void> {
  await page.goto('/auth/signin');
  await page.getByLabel('E-mail or username').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

// WebAuthn needs a site name: Chromium refuses it on a numeric address such as 127.0.0.1. The
// app is reached as localhost, by a worker of its own.
test.use({ appHost: 'localhost' });

test.describe('passkeys', () => {
  test.use({
    viewport: { width: 375, height: 740 },
    colorScheme: 'dark',
    allowedStatuses: [403],
  });

  test('a passkey added in the profile is the second step of the next sign-in', async ({
    page,
    browser,
    baseURL,
    request,
  }) => {
    expect(baseURL).toMatch(/^http:\/\/localhost:\d+$/);
    const account = newAccount('passkey');
    await createVerifiedAccount(request, account);
    const device = await virtualAuthenticator(page);
    await submitPassword(page, account);
    await expect(page).toHaveURL(/\/teams$/);

    await page.goto('/profile');
    await page.getByLabel('Passkey name').fill('Phone');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    // The first factor comes with recovery codes, shown once.
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    const passkeys = page.getByRole('list', { name: 'Passkeys' });
    await expect(passkeys.getByText('Phone', { exact: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}passkeys-profile-phone-dark.png`,
      fullPage: true,
    });
    await waitForMail(account.email, /passkey was added/i);
    const { credentials } = await device.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: device.id,
    });
    const [credential] = credentials;
    if (credential === undefined) throw new Error('the authenticator holds no passkey');
    expect(credentials).toHaveLength(1);

    // Another browser with the same device: the password alone no longer signs in, the passkey
    // does.
    const other = await otherBrowser(browser, baseURL, { colorScheme: 'light' }, [403]);
    const otherDevice = await virtualAuthenticator(other.page);
    await otherDevice.cdp.send('WebAuthn.addCredential', {
      authenticatorId: otherDevice.id,
      credential,
    });
    await submitPassword(other.page, account);
    await expect(other.page.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible();
    await expect(
      other.page.getByText('Use your passkey to continue.', { exact: false }),
    ).toBeVisible();
    // No authenticator app on this account: no code field is offered.
    await expect(other.page.getByLabel('Code from the authenticator app')).toHaveCount(0);
    await other.page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}passkeys-step-phone-light.png`,
      fullPage: true,
    });
    await other.page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(other.page).toHaveURL(/\/teams$/);
    const after = await otherDevice.cdp.send('WebAuthn.getCredentials', {
      authenticatorId: otherDevice.id,
    });
    expect(after.credentials[0]?.signCount).toBeGreaterThan(credential.signCount);
    await other.close();

    // A browser without the passkey cannot pass the second step with it, and is told so.
    const third = await otherBrowser(browser, baseURL, {}, [400, 403]);
    const empty = await virtualAuthenticator(third.page);
    await submitPassword(third.page, account);
    await third.page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(
      third.page.getByText('The passkey could not be used. Try again, or use another way.'),
    ).toBeVisible({ timeout: 15_000 });
    await expect(third.page).toHaveURL(/\/auth\/signin/);
    await empty.cdp.detach();
    await third.close();

    // Removing the passkey turns the second step off again.
    await page.getByRole('button', { name: 'Remove the passkey Phone' }).click();
    await expect(passkeys).toHaveCount(0);
    const fourth = await otherBrowser(browser, baseURL, {}, [403]);
    await submitPassword(fourth.page, account);
    await expect(fourth.page).toHaveURL(/\/teams$/);
    await fourth.close();
  });
});
