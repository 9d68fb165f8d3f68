import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/servers.js';
import {
  createVerifiedAccount,
  newAccount,
  verificationLink,
  type Account,
} from '../support/accounts.js';
import { linkIn, waitForMail } from '../support/mailbox.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };
const TOKEN_KEYS = ['IDToken', 'TokenType', 'AccessToken', 'RefreshToken', 'ExpiresAt'];
const FAILED_RESOURCE = /Failed to load resource: the server responded with a status of (\d+)/;

/**
 * Every test fails if the page logged an error or threw. The browser also logs each HTTP error
 * answer; a test that provokes one on purpose (a wrong password) lists its status first.
 */
const test = base.extend<{ expectHttpErrors: (...statuses: number[]) => void }>({
  expectHttpErrors: [
    async ({ page }, use) => {
      const expected = new Set<number>();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const status = FAILED_RESOURCE.exec(message.text())?.[1];
        if (status !== undefined && expected.has(Number(status))) return;
        errors.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      await use((...statuses) => statuses.forEach((status) => expected.add(status)));
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

function storedTokens(page: Page): Promise<(string | null)[]> {
  return page.evaluate((keys) => keys.map((key) => localStorage.getItem(key)), TOKEN_KEYS);
}

async function signIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByLabel('E-mail or username').fill(identifier);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signInAndWait(page: Page, account: Account): Promise<void> {
  await page.goto('/auth/signin');
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/teams$/);
  await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
}

async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
}

test.describe('accounts', () => {
  test('sign up, verify from the e-mail, sign in, stay signed in, edit the profile, sign out', async ({
    page,
    expectHttpErrors,
  }) => {
    const account = newAccount('signup');
    await page.goto('/auth/signup');
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
    await page.getByLabel('Preferred name').fill(`   ${account.nickname}`);
    await expect(page.getByLabel('Preferred name')).toHaveValue(account.nickname);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByText(`We sent a verification link to ${account.email}`)).toBeVisible();

    // A link that fails (here its code is wrong) offers a new one, mailed at once.
    const first = await verificationLink(account.email);
    const broken = new URL(first.href);
    broken.searchParams.set('code', 'x'.repeat(43));
    expectHttpErrors(400);
    await page.goto(broken.href);
    await expect(page.getByText('The verification code is wrong.')).toBeVisible();
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await expect(
      page.getByText(`If ${account.email} has an account waiting for verification`),
    ).toBeVisible();
    let link = first;
    await expect
      .poll(async () => {
        link = await verificationLink(account.email);
        return link.searchParams.get('code');
      })
      .not.toBe(first.searchParams.get('code'));

    // The link of the e-mail verifies on load, once.
    const verifyCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/verify-email')) verifyCalls.push(request.method());
    });
    await page.goto(link.href);
    await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
    expect(verifyCalls).toEqual(['POST']);

    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/teams$/);
    const tokens = await storedTokens(page);
    expect(tokens.every((value) => value !== null)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('IdentityProvider'))).toBe('false');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your teams' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Raccolta: choose a team' })).toHaveAttribute(
      'href',
      '/switch-team',
    );

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByLabel('E-mail')).toHaveValue(account.email);
    const save = page.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await save.click();
    await expect(page.getByText('Your profile has been updated.')).toBeVisible();
    await expect(save).toBeDisabled();
    // The avatar's initials are drawn by CSS from data-initials (UserAvatar).
    await expect(
      page.getByRole('button', { name: 'Account menu' }).locator('[data-initials]'),
    ).toHaveAttribute('data-initials', 'AL');
    await expect(page.getByRole('contentinfo')).toHaveCount(0);

    await page.reload();
    await expect(page.getByLabel('Last name')).toHaveValue('Lovelace');

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    expect(await storedTokens(page)).toEqual(TOKEN_KEYS.map(() => null));

    // The sign-out revoked the session: a login page opened anew asks to sign in first.
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await expect(page.getByText('Sign in to continue to your profile.')).toBeVisible();
  });

  test('forgot password: the e-mailed link sets a new password, and only that one works', async ({
    page,
    request,
    expectHttpErrors,
  }) => {
    const account = newAccount('reset');
    await createVerifiedAccount(request, account);

    await page.goto('/auth/signin');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/auth\/forgot$/);
    // The sign-in page, with its own E-mail field, stays until the new page has loaded.
    await expect(
      page.getByRole('heading', { level: 1, name: 'Forgot your password?' }),
    ).toBeVisible();
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByText(`If an account exists for ${account.email}`)).toBeVisible();

    const mail = await waitForMail(account.email, /Reset your Raccolta password/);
    await page.goto(linkIn(mail, '/auth/reset'));
    await expect(page.getByText(`For the account ${account.email}.`)).toBeVisible();
    const newPassword = 'Another-pass-2';
    await page.getByLabel('New password').fill(newPassword);
    await page.getByLabel('Confirm password').fill('Mismatch-pass-2');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await page.getByLabel('Confirm password').fill(newPassword);
    await page.getByRole('button', { name: 'Save the password' }).click();
    await expect(page.getByText('Your password has been changed.')).toBeVisible();

    await page.getByRole('link', { name: 'Sign in' }).click();
    expectHttpErrors(401);
    await signIn(page, account.email, account.password);
    await expect(page.getByRole('alert')).toHaveText('Incorrect e-mail or password');
    await expect(page).toHaveURL(/\/auth\/signin$/);

    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/teams$/);
  });

  test('a session ended elsewhere signs the tab out quietly: a 401, no error in the console', async ({
    page,
    request,
    expectHttpErrors,
  }) => {
    const account = newAccount('revoked');
    await createVerifiedAccount(request, account);
    await page.goto('/auth/signin');
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/teams$/);
    // The same session signed out from elsewhere (another tab, a script): its tokens are dead.
    const token = await page.evaluate(() => localStorage.getItem('AccessToken'));
    const signOut = await request.post('/api/auth/signout', { data: { accessToken: token } });
    expect(signOut.ok()).toBe(true);

    // The tab learns it from GET /users/@me's 401: the browser logs the status, the app nothing.
    expectHttpErrors(401);
    await page.goto('/profile');
    // Signed out: the sign-in page, saying it leads back to the profile.
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await expect(page.getByText('Sign in to continue to your profile.')).toBeVisible();
    expect(await storedTokens(page)).toEqual(TOKEN_KEYS.map(() => null));
  });

  test('a wrong password shows the translated error and keeps the visitor signed out', async ({
    page,
    request,
    expectHttpErrors,
  }) => {
    const account = newAccount('wrong');
    await createVerifiedAccount(request, account);
    expectHttpErrors(401);
    await page.goto('/auth/signin');
    await signIn(page, account.email, 'Not-the-password-1');
    await expect(page.getByRole('alert')).toHaveText('Incorrect e-mail or password');
    expect(await storedTokens(page)).toEqual(TOKEN_KEYS.map(() => null));
  });

  test('guest-only pages send a signed-in user to the teams, and sign-in returns to the page asked for', async ({
    page,
    request,
  }) => {
    const account = newAccount('guard');
    await createVerifiedAccount(request, account);

    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await expect(page.getByText('Sign in to continue to your profile.')).toBeVisible();
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/profile$/);
    // The detour is forgotten once the page asked for has rendered (an effect, so a moment after
    // the URL changed): only then does a guest page send the user to the default one.
    await expect
      .poll(() => page.evaluate(() => sessionStorage.getItem('signInRedirect')))
      .toBeNull();

    for (const path of ['/', '/auth/signin', '/auth/signup']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/teams$/);
    }
    // Links from e-mails open whoever is signed in.
    await page.goto('/auth/forgot');
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  });
});

test.describe('in Italian', () => {
  test.use({ locale: 'it-IT' });

  test('the sign-in page and its errors are translated', async ({
    page,
    request,
    expectHttpErrors,
  }) => {
    const account = newAccount('italiano');
    await createVerifiedAccount(request, account);
    await page.goto('/auth/signin');
    await expect(page.getByRole('heading', { name: 'Accedi' })).toBeVisible();
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page.getByText('E-mail o nome utente obbligatorio')).toBeVisible();
    await expect(page.getByText('La password è obbligatoria', { exact: true })).toBeVisible();

    expectHttpErrors(401);
    await page.getByLabel('E-mail o nome utente').fill(account.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Sbagliata-123');
    await page.getByRole('button', { name: 'Accedi', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('E-mail o password errati');
    await expect(page.getByRole('link', { name: 'Password dimenticata?' })).toBeVisible();
  });
});

const VARIANTS = [
  { suffix: 'light', colorScheme: 'light', viewport: undefined },
  { suffix: 'dark', colorScheme: 'dark', viewport: undefined },
  { suffix: 'phone', colorScheme: 'light', viewport: PHONE },
] as const;

for (const variant of VARIANTS) {
  test.describe(`screenshots, ${variant.suffix}`, () => {
    test.use({
      colorScheme: variant.colorScheme,
      ...(variant.viewport ? { viewport: variant.viewport } : {}),
    });

    test(`auth screens (${variant.suffix})`, async ({ page, request }) => {
      const shot = (screen: string) =>
        page.screenshot({
          animations: 'disabled',
          path: `${SCREENSHOT_DIR}auth-${screen}-${variant.suffix}.png`,
          fullPage: true,
        });
      await page.goto('/auth/signin');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await shot('signin');

      await page.goto('/auth/signup');
      // Enter rather than a click: the button's ripple would be caught mid-animation.
      await page.getByLabel('E-mail').press('Enter');
      // With the validation messages showing: the longest the form gets.
      await expect(page.getByText('E-mail required')).toBeVisible();
      await shot('signup');

      await page.goto('/auth/forgot');
      await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
      await shot('forgot');

      const account = newAccount(`shots-${variant.suffix}`);
      const signUp = await request.post('/api/auth/signup', {
        data: { ...account, locale: 'en' },
      });
      expect(signUp.status()).toBe(201);
      await page.goto((await verificationLink(account.email)).href);
      await expect(page.getByText('Your e-mail address is verified.')).toBeVisible();
      await shot('verify');

      const forgot = await request.post('/api/auth/forgot-password', {
        data: { email: account.email },
      });
      expect(forgot.status()).toBe(200);
      const mail = await waitForMail(account.email, /Reset your Raccolta password/);
      await page.goto(linkIn(mail, '/auth/reset'));
      await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
      await shot('reset');

      await signInAndWait(page, account);
      await page.goto('/profile');
      await expect(page.getByLabel('E-mail')).toHaveValue(account.email);
      await shot('profile');
    });
  });
}
