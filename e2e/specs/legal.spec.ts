import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { otherBrowser } from '../support/browser.js';
import { signInAsOwner } from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

type Document = 'terms' | 'privacy';
interface LegalContent {
  version: string;
  title: string;
  sections: { heading: string }[];
}

/** The content files the pages render, so the checks follow the texts when they change. */
function content(document: Document, language: 'en' | 'it'): LegalContent {
  const file = new URL(
    `../../apps/web/src/features/legal/content/${document}.${language}.json`,
    import.meta.url,
  );
  return JSON.parse(readFileSync(file, 'utf8')) as LegalContent;
}

const TAB_TITLES = {
  en: { terms: 'Terms of Service · Raccolta', privacy: 'Privacy Policy · Raccolta' },
  it: { terms: 'Termini di servizio · Raccolta', privacy: 'Informativa sulla privacy · Raccolta' },
};

/** The version in force of each document, and its date as the page writes it. */
const VERSION_DATES = {
  terms: { version: '2025-03-05', en: '5 March 2025', it: '5 marzo 2025' },
  privacy: { version: '2026-11-28', en: '28 November 2026', it: '28 novembre 2026' },
};

async function expectLegalPage(
  page: Page,
  document: Document,
  language: 'en' | 'it' = 'en',
): Promise<void> {
  const expected = content(document, language);
  const date = VERSION_DATES[document];
  expect(expected.version).toBe(date.version);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(expected.title);
  const version = page.locator(`time[datetime="${expected.version}"]`);
  await expect(version).toHaveText(date[language]);
  await expect(version.locator('xpath=..')).toHaveText(
    `${language === 'it' ? 'Versione del' : 'Version of'} ${date[language]}`,
  );
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(
    expected.sections.map((section) => section.heading),
  );
  await expect(page).toHaveTitle(TAB_TITLES[language][document]);
}

/** Nothing axe rates serious or critical (contrast, names, structure, language). */
async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
  expect(found, what).toEqual([]);
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits).toBe(true);
}

test.describe('legal pages', () => {
  test('the footer leads to the terms and the privacy policy, by mouse and keyboard', async ({
    page,
  }) => {
    await page.goto('/');
    const footer = page.getByRole('navigation', { name: 'Legal information' });
    await footer.getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expectLegalPage(page, 'terms');

    // The links are ordinary links: focus and Enter follow them.
    await footer.getByRole('link', { name: 'Privacy Policy' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/privacy$/);
    await expectLegalPage(page, 'privacy');
    // The page opens at its top, the title first.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('opened directly, signed out and signed in alike', async ({ page, request }) => {
    await page.goto('/privacy');
    await expectLegalPage(page, 'privacy');
    await page.goto('/terms');
    await expectLegalPage(page, 'terms');

    const account = newAccount('legal');
    await createVerifiedAccount(request, account);
    await signInAsOwner(page, account.email, account.password);
    await page.goto('/terms');
    await expect(page).toHaveURL(/\/terms$/);
    await expectLegalPage(page, 'terms');
    await page.goto('/privacy');
    await expectLegalPage(page, 'privacy');
  });

  test('the sign-up notice opens the terms and the policy in a new tab', async ({ page }) => {
    await page.goto('/auth/signup');
    for (const [name, document] of [
      ['Terms of Service', 'terms'],
      ['Privacy Policy', 'privacy'],
    ] as const) {
      const opened = page.context().waitForEvent('page');
      await page.getByRole('main').getByRole('link', { name }).click();
      const tab = await opened;
      await expectLegalPage(tab, document);
      await tab.close();
    }
    await expect(page).toHaveURL(/\/auth\/signup$/);
  });

  test.describe('in Italian', () => {
    test.use({ locale: 'it-IT' });

    test('the texts, the version date and the footer are Italian', async ({ page }) => {
      await page.goto('/');
      const footer = page.getByRole('navigation', { name: 'Note legali' });
      await footer.getByRole('link', { name: 'Informativa sulla privacy' }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'it');
      await expectLegalPage(page, 'privacy', 'it');
      await expect(page.getByText('Garante per la protezione dei dati personali')).toBeVisible();

      await footer.getByRole('link', { name: 'Termini di servizio' }).click();
      await expectLegalPage(page, 'terms', 'it');
    });
  });

  test('readable and accessible: light, dark, 375 px and Italian, with screenshots', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const variants = [
      { name: 'light', options: { colorScheme: 'light' } },
      { name: 'dark', options: { colorScheme: 'dark' } },
      { name: 'phone-light', options: { colorScheme: 'light', viewport: PHONE, isMobile: true } },
      { name: 'phone-dark-it', options: { colorScheme: 'dark', viewport: PHONE, locale: 'it-IT' } },
    ] as const;
    for (const variant of variants) {
      const language = 'locale' in variant.options ? 'it' : 'en';
      const { page, close } = await otherBrowser(browser, baseURL, variant.options);
      for (const document of ['terms', 'privacy'] as const) {
        await page.goto(`/${document}`);
        await expectLegalPage(page, document, language);
        await expectNoHorizontalScroll(page);
        await expectAccessible(page, `${variant.name}: /${document}`);
        await page.screenshot({
          animations: 'disabled',
          path: `${SCREENSHOT_DIR}legal-${document}-${variant.name}.png`,
          fullPage: true,
        });
        // The first screen as a visitor sees it: a long page shrinks to unreadable when whole.
        await page.screenshot({
          animations: 'disabled',
          path: `${SCREENSHOT_DIR}legal-${document}-${variant.name}-top.png`,
        });
      }
      // The footer with its links, where a visitor meets them first.
      await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
      await page.getByRole('contentinfo').screenshot({
        animations: 'disabled',
        path: `${SCREENSHOT_DIR}legal-footer-${variant.name}.png`,
      });
      await close();
    }
  });
});
