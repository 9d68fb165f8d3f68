import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { newAccount } from '../support/accounts.js';
import { otherBrowser } from '../support/browser.js';
import { linkIn, waitForMail } from '../support/mailbox.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

/** axe-core on what is shown: nothing serious or critical (WCAG A/AA rules and best practices). */
async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
  expect(found, what).toEqual([]);
}

/** Presses Tab until `target` has the focus: the keyboard path a person takes from the top. */
async function tabTo(page: Page, target: Locator, maxPresses = 30): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test.describe('newsletter', () => {
  test('subscribe with the keyboard only, confirm from the e-mail, unsubscribe from the welcome e-mail', async ({
    page,
    browser,
    baseURL,
  }) => {
    const { email } = newAccount('news');
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'landing page');

    const field = page.getByRole('textbox', { name: 'E-mail' });
    const terms = page.getByRole('checkbox', { name: /I accept the Terms of Service/ });
    await tabTo(page, field);
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await expect(terms).toBeFocused();
    await page.keyboard.press('Space');
    await expect(terms).toBeChecked();
    // The terms and privacy links come next, then the button.
    await page.keyboard.press('Tab');
    // The form's own links (the footer has links of the same names).
    const form = page.getByRole('form');
    await expect(form.getByRole('link', { name: 'Terms of Service' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(form.getByRole('link', { name: 'Privacy Policy' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Subscribe' })).toBeFocused();
    await page.keyboard.press('Enter');

    const success = page.getByRole('status').filter({ hasText: 'we sent a confirmation link' });
    await expect(success).toContainText(email);
    await expect(success).toBeFocused();
    await expect(field).toHaveCount(0);

    const confirmation = await waitForMail(email, /Confirm your subscription/);
    await page.goto(linkIn(confirmation, '/newsletter/confirm'));
    await expect(page.getByText('Your subscription is confirmed')).toBeVisible();

    // The address is subscribed now: subscribing it again says so.
    const again = await otherBrowser(browser, baseURL, {}, [409]);
    await again.page.goto('/');
    await again.page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await again.page.getByRole('checkbox', { name: /I accept/ }).check();
    await again.page.getByRole('textbox', { name: 'E-mail' }).press('Enter');
    await expect(again.page.getByRole('alert')).toHaveText('E-mail already registered');
    await again.close();

    const welcome = await waitForMail(email, /Welcome to the Raccolta newsletter/);
    await page.goto(linkIn(welcome, '/unsubscribe'));
    await expect(
      page.getByText('You won’t receive the Raccolta newsletter any more.'),
    ).toBeVisible();
    await expectAccessible(page, 'unsubscribe page');
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  });

  test('an unsubscribe link missing its token is refused on the page', async ({ page }) => {
    await page.goto('/unsubscribe?email=someone%40example.test');
    await expect(page.getByText('This unsubscribe link is not valid.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
  });
});

const VARIANTS = [
  { suffix: 'light', colorScheme: 'light', viewport: undefined, locale: 'en-GB' },
  { suffix: 'dark', colorScheme: 'dark', viewport: undefined, locale: 'en-GB' },
  { suffix: 'phone', colorScheme: 'light', viewport: PHONE, locale: 'en-GB' },
  { suffix: 'italian', colorScheme: 'dark', viewport: PHONE, locale: 'it-IT' },
] as const;

const TEXTS = {
  en: {
    email: 'E-mail',
    terms: /I accept/,
    submit: 'Subscribe',
    required: 'E-mail required',
    sent: 'we sent a confirmation link',
    confirmMail: /Confirm your subscription/,
    confirmed: 'Your subscription is confirmed',
    welcomeMail: /Welcome to the Raccolta newsletter/,
    unsubscribed: 'You won’t receive the Raccolta newsletter any more.',
    home: 'Back to home',
  },
  it: {
    email: 'E-mail',
    terms: /Accetto/,
    submit: 'Iscriviti',
    required: 'L’e-mail è obbligatoria',
    sent: 'abbiamo inviato un link di conferma',
    confirmMail: /Conferma l'iscrizione/,
    confirmed: 'L’iscrizione è confermata',
    welcomeMail: /Ti diamo il benvenuto/,
    unsubscribed: 'Non riceverai più la newsletter di Raccolta.',
    home: 'Torna alla home',
  },
};

for (const variant of VARIANTS) {
  test(`newsletter screens and their accessibility (${variant.suffix})`, async ({
    browser,
    baseURL,
  }) => {
    const x = TEXTS[variant.locale === 'it-IT' ? 'it' : 'en'];
    const { page, close } = await otherBrowser(browser, baseURL, {
      colorScheme: variant.colorScheme,
      locale: variant.locale,
      ...(variant.viewport ? { viewport: variant.viewport } : {}),
    });
    const shot = (name: string) =>
      page.screenshot({
        animations: 'disabled',
        path: `${SCREENSHOT_DIR}newsletter-${name}-${variant.suffix}.png`,
        fullPage: true,
      });
    const { email } = newAccount(`news-${variant.suffix}`);

    await page.goto('/');
    await expect(page.getByRole('button', { name: x.submit })).toBeVisible();
    await shot('landing');
    // Enter rather than a click: the button's ripple would be caught mid-animation.
    await page.getByRole('textbox', { name: x.email }).press('Enter');
    await expect(page.getByText(x.required)).toBeVisible();
    await expectAccessible(page, `${variant.suffix}: landing page with errors`);
    await shot('landing-errors');

    await page.getByRole('textbox', { name: x.email }).fill(email);
    await page.getByRole('checkbox', { name: x.terms }).check();
    await page.getByRole('textbox', { name: x.email }).press('Enter');
    await expect(page.getByRole('status').filter({ hasText: x.sent })).toBeVisible();
    await expectAccessible(page, `${variant.suffix}: subscribed`);
    await shot('landing-success');

    await page.goto(linkIn(await waitForMail(email, x.confirmMail), '/newsletter/confirm'));
    await expect(page.getByText(x.confirmed)).toBeVisible();
    await shot('confirmed');

    await page.goto(linkIn(await waitForMail(email, x.welcomeMail), '/unsubscribe'));
    await expect(page.getByText(x.unsubscribed)).toBeVisible();
    await expect(page.getByRole('link', { name: x.home })).toBeVisible();
    await expectAccessible(page, `${variant.suffix}: unsubscribe page`);
    await shot('unsubscribed');
    await close();
  });
}
