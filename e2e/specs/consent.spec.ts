import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { analyticsOrigin, CONSENT_COOKIE } from '../support/consent.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

interface AnalyticsEvent {
  name: string;
  url: string;
  domain: string | null;
}

/** Every request the page makes, from before its first navigation. */
function recordRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => requests.push(request));
  return requests;
}

const toAnalytics = (requests: Request[]) =>
  requests.map((request) => request.url()).filter((url) => url.startsWith(analyticsOrigin()));

/** What reached the analytics service (support/analytics-server.ts) in this run. */
async function analyticsEvents(page: Page): Promise<AnalyticsEvent[]> {
  const res = await page.request.get(`${analyticsOrigin()}/events`);
  return ((await res.json()) as { events: AnalyticsEvent[] }).events;
}

async function consentCookie(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === CONSENT_COOKIE)?.value;
}

/** The page has settled: nothing in flight that a late analytics request could hide behind. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
}

const banner = (page: Page) => page.getByRole('region', { name: 'Cookies and statistics' });
const resetButton = (page: Page) => page.getByRole('button', { name: 'Change your cookie choice' });

async function expectNoSeriousAxeViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
  expect(serious, what).toEqual([]);
}

test.describe('cookie consent and analytics', () => {
  // Every test here starts as a visitor who has not chosen yet.
  test.use({ consent: null });

  test('nothing reaches the analytics host before consent, across pages, nor after declining', async ({
    page,
  }) => {
    const requests = recordRequests(page);
    const eventsBefore = (await analyticsEvents(page)).length;

    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/auth\/signin$/);
    await expect(banner(page)).toBeVisible();
    await page.goto('/status');
    await expect(page.getByRole('heading', { name: 'Backend status' })).toBeVisible();
    await settle(page);
    expect(toAnalytics(requests)).toEqual([]);
    // Nothing was asked of the app before consent either: no cookie choice stored.
    expect(await consentCookie(page)).toBeUndefined();

    await banner(page).getByRole('button', { name: 'Decline' }).click();
    await expect(banner(page)).toBeHidden();
    expect(await consentCookie(page)).toBe('false');

    // A phone-sized window, so the sign-up page scrolls well past a quarter.
    await page.setViewportSize(PHONE);
    await page.goto('/auth/signup');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.mouse.wheel(0, 400);
    await page.reload();
    await settle(page);
    await expect(banner(page)).toBeHidden();
    expect(await consentCookie(page)).toBe('false');
    expect(toAnalytics(requests)).toEqual([]);
    expect((await analyticsEvents(page)).length).toBe(eventsBefore);
  });

  test('accepting by click loads the script, a page view arrives, and so on later pages and visits', async ({
    page,
    baseURL,
  }) => {
    const requests = recordRequests(page);
    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    await settle(page);
    expect(toAnalytics(requests)).toEqual([]);

    const eventsBefore = (await analyticsEvents(page)).length;
    const script = page.waitForRequest(`${analyticsOrigin()}/js/script.js`);
    const beacon = page.waitForRequest(`${analyticsOrigin()}/api/event`);
    await banner(page).getByRole('button', { name: 'Accept' }).click();
    await script;
    await beacon;
    await expect(banner(page)).toBeHidden();
    expect(await consentCookie(page)).toBe('true');
    const cookie = (await page.context().cookies()).find((c) => c.name === CONSENT_COOKIE);
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax', secure: false });
    // 365 days, give or take the seconds the test took.
    const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThanOrEqual(365);

    await expect
      .poll(async () => (await analyticsEvents(page)).slice(eventsBefore))
      .toEqual([
        { name: 'pageview', url: `${baseURL ?? ''}/`, domain: new URL(baseURL ?? '').host },
      ]);

    // Client-side navigation is a page view too.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect
      .poll(async () => (await analyticsEvents(page)).slice(eventsBefore).map((e) => e.url))
      .toEqual([`${baseURL ?? ''}/`, `${baseURL ?? ''}/auth/signin`]);

    // A later visit with the cookie set loads analytics at once, without asking again.
    const again = page.waitForRequest(`${analyticsOrigin()}/js/script.js`);
    await page.reload();
    await again;
    await expect(banner(page)).toBeHidden();
  });

  test('a new visitor scrolling a quarter of the page accepts', async ({ page }) => {
    await page.setViewportSize(PHONE);
    const requests = recordRequests(page);
    await page.goto('/auth/signup');
    await expect(banner(page)).toBeVisible();
    await settle(page);
    expect(toAnalytics(requests)).toEqual([]);

    const beacon = page.waitForRequest(`${analyticsOrigin()}/api/event`);
    const scrollable = await page.evaluate(() => {
      const root = document.documentElement;
      const room = root.scrollHeight - root.clientHeight;
      window.scrollTo(0, Math.ceil(room * 0.3));
      return room;
    });
    expect(scrollable).toBeGreaterThan(100);
    await beacon;
    await expect(banner(page)).toBeHidden();
    expect(await consentCookie(page)).toBe('true');
  });

  test('the floating button forgets the choice and reloads: the banner is back, analytics is not', async ({
    page,
  }) => {
    await page.goto('/');
    const script = page.waitForRequest(`${analyticsOrigin()}/js/script.js`);
    await banner(page).getByRole('button', { name: 'Accept' }).click();
    await script;
    await settle(page);

    await page.setViewportSize(PHONE);
    // The button floats over the end of the page only: on a phone the landing page scrolls.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(resetButton(page)).toBeInViewport();
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}consent-reset-375.png`,
    });
    const requests = recordRequests(page);
    const reloaded = page.waitForEvent('load');
    await resetButton(page).click();
    await reloaded;
    await expect(banner(page)).toBeVisible();
    await expect(resetButton(page)).toHaveCount(0);
    expect(await consentCookie(page)).toBeUndefined();
    await settle(page);
    expect(toAnalytics(requests)).toEqual([]);
  });

  test('keyboard only: Tab reaches the skip link, then the banner’s link and buttons, Enter accepts', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(banner(page)).toBeVisible();
    // "Skip to content" first, then the banner.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    const privacy = banner(page).getByRole('link', { name: 'Privacy Policy' });
    await expect(privacy).toBeFocused();
    await expect(privacy).toHaveAttribute('href', '/privacy');
    await expect(privacy).toHaveAttribute('target', '_blank');
    await expect(privacy).toHaveAttribute('rel', /noopener/);
    await page.keyboard.press('Tab');
    await expect(banner(page).getByRole('button', { name: 'Decline' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(banner(page).getByRole('button', { name: 'Accept' })).toBeFocused();
    const beacon = page.waitForRequest(`${analyticsOrigin()}/api/event`);
    await page.keyboard.press('Enter');
    await beacon;
    await expect(banner(page)).toBeHidden();
    expect(await consentCookie(page)).toBe('true');

    // The reset button is reachable with the keyboard as well: it comes into view with focus.
    await page.setViewportSize({ width: 375, height: 400 });
    await page.goto('/auth/signup');
    await page.evaluate(() => window.scrollTo(0, 0));
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await resetButton(page).evaluate((el) => el === document.activeElement)) break;
    }
    await expect(resetButton(page)).toBeFocused();
    await expect(resetButton(page)).toBeInViewport();
  });
});

/**
 * Scrolling accepts (spec §9), so the banner says so, and the landing page's form can be used
 * without scrolling: on a 375 × 667 phone and a 1280 × 720 laptop its Subscribe button shows in
 * the first screen, above the banner, in both languages.
 */
for (const variant of [
  { name: '375-en', locale: 'en-GB', viewport: { width: 375, height: 667 } },
  { name: '375-it', locale: 'it-IT', viewport: { width: 375, height: 667 } },
  { name: '375-dark', locale: 'en-GB', viewport: { width: 375, height: 667 }, dark: true },
  { name: '1280-en', locale: 'en-GB', viewport: { width: 1280, height: 720 } },
  { name: '1280-it', locale: 'it-IT', viewport: { width: 1280, height: 720 } },
]) {
  test.describe(`the banner on the landing page, ${variant.name}`, () => {
    test.use({
      consent: null,
      locale: variant.locale,
      viewport: variant.viewport,
      colorScheme: variant.dark === true ? 'dark' : 'light',
    });

    test('says that scrolling accepts, and leaves the Subscribe button free', async ({ page }) => {
      const italian = variant.locale.startsWith('it');
      await page.goto('/');
      const region = page.getByRole('region', {
        name: italian ? 'Cookie e statistiche' : 'Cookies and statistics',
      });
      await expect(region).toBeVisible();
      await expect(
        region.getByText(
          italian
            ? 'Continuando a scorrere accetti i cookie analitici.'
            : 'Continuing to scroll accepts analytics cookies.',
        ),
      ).toBeVisible();
      await expect(
        region.getByRole('link', {
          name: italian ? 'Informativa sulla privacy' : 'Privacy Policy',
        }),
      ).toBeVisible();

      const submit = page.getByRole('button', { name: italian ? 'Iscriviti' : 'Subscribe' });
      await expect(submit).toBeInViewport({ ratio: 1 });
      const button = await submit.boundingBox();
      const bar = await region.boundingBox();
      if (button === null || bar === null) throw new Error('no box for the button or the banner');
      expect(button.y + button.height, 'the button ends above the banner').toBeLessThanOrEqual(
        bar.y,
      );
      // What a tap at the button's centre and corners reaches is the button itself.
      const hits = await submit.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const points = [
          [box.left + box.width / 2, box.top + box.height / 2],
          [box.left + 2, box.top + 2],
          [box.right - 2, box.bottom - 2],
        ] as const;
        return points.map(([x, y]) => element.contains(document.elementFromPoint(x, y)));
      });
      expect(hits).toEqual([true, true, true]);
      // Nothing was scrolled, so nothing was accepted.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await consentCookie(page)).toBeUndefined();
      await page.screenshot({
        animations: 'disabled',
        path: `${SCREENSHOT_DIR}consent-banner-landing-${variant.name}.png`,
      });
    });
  });
}

test.describe('the cookie banner looks right and passes axe', () => {
  test.use({ consent: null });

  for (const variant of [
    { name: 'light', options: { colorScheme: 'light' as const } },
    { name: 'dark', options: { colorScheme: 'dark' as const } },
    { name: '375', options: { viewport: PHONE } },
    { name: '375-dark', options: { viewport: PHONE, colorScheme: 'dark' as const } },
    { name: 'it', options: { locale: 'it-IT' } },
  ]) {
    test.describe(variant.name, () => {
      test.use(variant.options);
      test(`the banner (${variant.name})`, async ({ page }) => {
        await page.goto('/');
        await expect(
          banner(page).or(page.getByRole('region', { name: 'Cookie e statistiche' })),
        ).toBeVisible();
        if (variant.name === 'it') {
          await expect(page.getByRole('button', { name: 'Accetta' })).toBeVisible();
          await expect(page.getByRole('button', { name: 'Rifiuta' })).toBeVisible();
        }
        await expectNoSeriousAxeViolations(page, `${variant.name}: landing with the banner`);
        await page.screenshot({
          animations: 'disabled',
          path: `${SCREENSHOT_DIR}consent-banner-${variant.name}.png`,
        });
      });
    });
  }

  test('at 375 px the banner and the reset button leave the upload app’s controls free', async ({
    page,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/upload/signin');
    await expect(banner(page)).toBeVisible();
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}consent-banner-upload-375.png`,
    });
    await expectNoSeriousAxeViolations(page, 'upload sign-in with the banner');
    await banner(page).getByRole('button', { name: 'Decline' }).click();
    // At the end of the page the button floats over room of its own, below the sign-in button.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(resetButton(page)).toBeInViewport();
    const signIn = await page.getByRole('button', { name: 'Sign in' }).boundingBox();
    const reset = await resetButton(page).boundingBox();
    expect(signIn && reset && signIn.y + signIn.height <= reset.y).toBe(true);
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}consent-reset-upload-375.png`,
    });
  });
});

test.describe('feature flags', () => {
  test('the language switcher shows only when lang-switcher is on, and switches the language', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { name: 'Collect files from your team, in one place' }),
    ).toBeVisible();
    await settle(page);
    await expect(page.getByRole('group', { name: 'Language' })).toHaveCount(0);

    // A local override, kept in this browser.
    await page.goto('/?flags=lang-switcher');
    const switcher = page.getByRole('group', { name: 'Language' });
    await expect(switcher).toBeVisible();
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}landing-language-switcher.png`,
    });
    await switcher.getByRole('button', { name: 'Italiano' }).click();
    await expect(
      page.getByRole('heading', { name: 'Raccogli i file del tuo team, in un unico posto' }),
    ).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'it');
    await page
      .getByRole('group', { name: 'Lingua' })
      .getByRole('button', { name: 'English' })
      .click();
    await expect(page.getByRole('group', { name: 'Language' })).toBeVisible();

    await page.goto('/');
    await expect(page.getByRole('group', { name: 'Language' })).toBeVisible();
    await page.goto('/?flags=-lang-switcher');
    await expect(
      page.getByRole('heading', { name: 'Collect files from your team, in one place' }),
    ).toBeVisible();
    await settle(page);
    await expect(page.getByRole('group', { name: 'Language' })).toHaveCount(0);
  });

  test('a language chosen on the landing page reaches a page already visited, every text translated', async ({
    page,
  }) => {
    await page.goto('/?flags=lang-switcher');
    // Italian once on the landing page (its texts for that page arrive), then English again.
    await page
      .getByRole('group', { name: 'Language' })
      .getByRole('button', { name: 'Italiano' })
      .click();
    await page
      .getByRole('group', { name: 'Lingua' })
      .getByRole('button', { name: 'English' })
      .click();
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'Sign in' }).click();
    await expect(page.getByText('Welcome back to Raccolta.')).toBeVisible();

    // Back on the landing page, which needs only its own texts, then to the same page again: its
    // code is there already, its Italian texts beyond the landing page's must come too.
    await page.goBack();
    await page
      .getByRole('group', { name: 'Language' })
      .getByRole('button', { name: 'Italiano' })
      .click();
    await header.getByRole('link', { name: 'Accedi' }).click();
    await expect(page.getByText('Bentornato su Raccolta.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Password dimenticata?' })).toBeVisible();
    await expect(page.getByText(/auth\.signIn/)).toHaveCount(0);
  });

  test('query-dev mounts the TanStack Query devtools, whose code loads only then', async ({
    page,
  }) => {
    const requests = recordRequests(page);
    await page.goto('/');
    await settle(page);
    const devtoolsButton = page.getByRole('button', { name: 'Open Tanstack query devtools' });
    await expect(devtoolsButton).toHaveCount(0);
    const scripts = () => requests.filter((r) => r.resourceType() === 'script').map((r) => r.url());
    expect(scripts().some((url) => /devtools/i.test(url))).toBe(false);

    await page.goto('/?flags=query-dev');
    await expect(devtoolsButton).toBeVisible();
    expect(scripts().some((url) => /devtools/i.test(url))).toBe(true);
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}query-devtools-flag.png`,
    });
    await page.goto('/?flags=reset');
    await settle(page);
    await expect(devtoolsButton).toHaveCount(0);
  });
});
