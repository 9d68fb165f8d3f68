import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { watchConsole } from '../support/browser.js';
import { presetConsent } from '../support/consent.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import {
  apiAddAlias,
  apiCreateTeam,
  apiInvite,
  sessionToken,
  signInAsOwner,
  uniqueSuffix,
} from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

/**
 * axe-core on every page the app has (public, auth, teams, collections, files, the upload app) and
 * the main dialogs, in light and dark, English and Italian: no serious or critical violation of the
 * WCAG 2.x A/AA rules and axe's best practices, colour contrast included. The experimental rule
 * for WCAG 2.5.3 (a control's accessible name contains its visible label) is switched on too: a
 * person using speech input says what they see.
 */
async function violationsOn(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} ${n.target.join(' ')} ${n.html.slice(0, 200)}: ${n.failureSummary ?? v.help}`,
      ),
    );
}

/**
 * Waits until the page has drawn its content: the network is quiet (redirects done, lists
 * loaded), a heading shows, no spinner or skeleton is left, and transitions have finished.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('h1, h2').first()).toBeVisible();
  await expect(
    page.locator('.MuiCircularProgress-root, .MuiSkeleton-root, .MuiLinearProgress-root'),
  ).toHaveCount(0);
  await page.waitForTimeout(300);
}

interface Fixture {
  teamId: string;
  alias: string;
  collectionId: string;
  downloadId: string;
  storageState: Awaited<ReturnType<BrowserContext['storageState']>>;
}

let fixture: Fixture;

test.beforeAll(async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  await presetConsent(context, baseURL, false);
  const page = await context.newPage();
  const request = context.request;
  const owner = newAccount('a11y');
  await createVerifiedAccount(request, owner);
  await signInAsOwner(page, owner.email, owner.password);
  const token = await sessionToken(page);
  const teamId = await apiCreateTeam(request, token, { name: 'Accessibile' });
  const alias = `a11y-${uniqueSuffix()}`;
  await apiAddAlias(request, token, teamId, alias);
  await apiInvite(request, token, teamId, {
    email: newAccount('a11y.invitee').email,
    nickname: 'Invitata',
    role: 'viewer',
  });
  const collectionId = await apiCreateCollection(request, token, teamId, { name: 'Colori' });
  await apiUploadFile(request, token, teamId, collectionId, {
    name: 'sky.png',
    mimeType: 'image/png',
    buffer: gradientPng(200, 120, [30, 110, 220]),
  });
  // A file in the trash, so the trash page shows a row.
  const trashed = await apiUploadFile(request, token, teamId, collectionId, {
    name: 'old.png',
    mimeType: 'image/png',
    buffer: gradientPng(40, 30, [200, 80, 40]),
  });
  expect(
    (
      await request.delete(`/api/teams/${teamId}/collections/${collectionId}/files/${trashed}`, {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).status(),
  ).toBe(204);
  const download = await request.post(`/api/teams/${teamId}/downloads`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { collectionId },
  });
  expect(download.status()).toBe(202);
  const { requestId: downloadId } = (await download.json()) as { requestId: string };
  fixture = {
    teamId,
    alias,
    collectionId,
    downloadId,
    storageState: await context.storageState(),
  };
  await context.close();
});

const GUEST_PAGES = [
  '/',
  '/auth/signin',
  '/auth/signup',
  '/auth/forgot',
  '/auth/reset?email=someone%40example.test&code=123456',
  '/auth/verify?email=someone%40example.test&code=123456',
  '/unsubscribe?email=someone%40example.test&token=x',
  '/newsletter/confirm?email=someone%40example.test&token=x',
  '/status',
  '/terms',
  '/privacy',
  '/404',
  '/upload/signin',
];

function signedInPages({ teamId, alias, collectionId }: Fixture): string[] {
  return [
    '/teams',
    '/profile',
    '/switch-team',
    `/teams/${teamId}`,
    `/teams/${teamId}/collections/${collectionId}`,
    `/teams/${teamId}/trash`,
    `/teams/${teamId}/invitations/accept?key=not-a-key`,
    `/teams/${teamId}/invitations/reject?key=not-a-key`,
    '/upload',
    `/upload/teams/${alias}`,
    `/upload/teams/${alias}/collections/${collectionId}`,
  ];
}

async function openContext(
  browser: Browser,
  baseURL: string | undefined,
  variant: (typeof VARIANTS)[number],
  storageState?: Fixture['storageState'],
) {
  const context = await browser.newContext({
    baseURL,
    colorScheme: variant.colorScheme,
    locale: variant.locale,
    acceptDownloads: true,
    ...(storageState === undefined ? {} : { storageState }),
  });
  if (storageState === undefined) await presetConsent(context, baseURL, false);
  const page = await context.newPage();
  // Broken links on purpose (reset, verify, invitation, unsubscribe) answer 400/404.
  const errors = watchConsole(page, [400, 404]);
  return { context, page, errors };
}

/**
 * Both themes and both languages on every page, paired rather than crossed: what differs between
 * the themes is colour (contrast), between the languages text (names, labels, lang); a full cross
 * would double the run (about 1.7 minutes per variant here) to measure the same things twice.
 */
const VARIANTS = [
  { name: 'light, English', colorScheme: 'light', locale: 'en-GB' },
  { name: 'dark, Italian', colorScheme: 'dark', locale: 'it-IT' },
] as const;

test.describe('accessibility (axe-core)', () => {
  for (const variant of VARIANTS) {
    test(`every page and the main dialogs: ${variant.name}`, async ({ browser, baseURL }) => {
      // About 1.8 minutes on a quiet 2-core machine: 30 pages and dialogs, each measured by axe.
      test.setTimeout(300_000);
      const found: string[] = [];
      const titles: string[] = [];
      const check = async (page: Page, what: string) => {
        // The tab names the page ("Sign in · Raccolta"); only the landing page is just Raccolta.
        const title = await page.title();
        if (what === '/') expect(title).toBe('Raccolta');
        else titles.push(`${what} → ${title}`);
        for (const violation of await violationsOn(page)) found.push(`${what}: ${violation}`);
      };

      const guest = await openContext(browser, baseURL, variant);
      for (const path of GUEST_PAGES) {
        await guest.page.goto(path);
        await settled(guest.page);
        await check(guest.page, path);
      }
      await guest.context.close();

      const member = await openContext(browser, baseURL, variant, fixture.storageState);
      const { page } = member;
      const italian = variant.locale.startsWith('it');
      for (const path of signedInPages(fixture)) {
        await page.goto(path);
        await settled(page);
        await check(page, path);
      }

      // The page of a prepared download (it saves the zip, then offers to download it again).
      await page.goto(`/teams/${fixture.teamId}/downloads/${fixture.downloadId}/download`);
      await expect(
        page.getByRole('button', { name: italian ? 'Scarica di nuovo' : 'Download again' }),
      ).toBeVisible({ timeout: 30_000 });
      await settled(page);
      await check(page, 'download page');

      // Dialogs: a new collection, adding a member (both tabs), deleting a collection, a file's
      // preview.
      await page.goto(`/teams/${fixture.teamId}`);
      await settled(page);
      await page
        .getByRole('button', { name: italian ? 'Nuova raccolta' : 'New collection' })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await settled(page);
      await check(page, 'new collection dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();

      await page
        .getByRole('button', { name: italian ? 'Aggiungi membro' : 'Add member' })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      await settled(page);
      await check(page, 'add member dialog');
      await dialog.getByRole('tab').nth(1).click();
      await settled(page);
      await check(page, 'add member dialog, second tab');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();

      // A row menu with its red Delete, and the question it asks.
      await page
        .getByRole('button', { name: italian ? 'Azioni per Colori' : 'Actions for Colori' })
        .click();
      await expect(page.getByRole('menu')).toBeVisible();
      await settled(page);
      await check(page, 'collection menu');
      await page.getByRole('menuitem', { name: italian ? 'Elimina' : 'Delete' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await settled(page);
      await check(page, 'delete collection dialog');
      await page.getByRole('button', { name: italian ? 'Annulla' : 'Cancel' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();

      await page.goto(`/teams/${fixture.teamId}/collections/${fixture.collectionId}`);
      await page.getByRole('button', { name: 'sky.png', exact: true }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await settled(page);
      await check(page, 'file preview');
      await member.context.close();

      expect(found, `${variant.name}: serious or critical axe violations`).toEqual([]);
      const suffix = / · (Raccolta|Raccolta upload|Caricamento Raccolta)$/;
      expect(
        titles.filter((line) => !suffix.test(line)),
        'pages whose tab title does not name them',
      ).toEqual([]);
      expect([...guest.errors, ...member.errors]).toEqual([]);
    });
  }
});

/** axe's colour-contrast rule alone, on what `selector` matches, as the page is drawn now. */
async function contrastOf(page: Page, selector: string, what: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .include(selector)
    .withRules(['color-contrast'])
    .analyze();
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${what}: ${n.target.join(' ')}: ${n.failureSummary ?? v.help}`),
  );
}

/**
 * What axe measures on a page at rest misses the states a pointer or the keyboard draws: hover
 * tints, focus rings, and the toasts that come and go. Each is brought about, then measured.
 */
test.describe('accessibility of hover, focus and toasts (axe colour contrast)', () => {
  for (const variant of VARIANTS) {
    test(`hovered and focused controls, an info toast: ${variant.name}`, async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(180_000);
      const italian = variant.locale.startsWith('it');
      const found: string[] = [];
      const member = await openContext(browser, baseURL, variant, fixture.storageState);
      const { page } = member;

      // The "Shared" chip on a hovered collection row. The row's link covers the row (its
      // ::after), so the pointer goes where a mouse would rather than to an element.
      await page.goto(`/teams/${fixture.teamId}`);
      await settled(page);
      const chip = page
        .getByRole('listitem')
        .filter({ hasText: 'Colori' })
        .getByText(italian ? 'Condivisa' : 'Shared', { exact: true });
      await expect(chip).toBeVisible();
      const box = await chip.boundingBox();
      if (box === null) throw new Error('the Shared chip has no box');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForTimeout(300);
      found.push(...(await contrastOf(page, '.MuiList-root', 'Shared chip on a hovered row')));

      // The outlined "Download all": hovered, then focused from the keyboard.
      await page.goto(`/teams/${fixture.teamId}/collections/${fixture.collectionId}`);
      await settled(page);
      const downloadAll = page.getByRole('button', {
        name: italian ? 'Scarica tutto' : 'Download all',
      });
      await downloadAll.hover();
      await page.waitForTimeout(300);
      found.push(...(await contrastOf(page, 'main', 'hovered outlined button')));
      await page.mouse.move(0, 0);
      // A key press first, so the browser draws the focus as keyboard focus (:focus-visible).
      await page.keyboard.press('Shift');
      await downloadAll.focus();
      await expect(downloadAll).toHaveClass(/Mui-focusVisible/);
      await page.waitForTimeout(300);
      found.push(...(await contrastOf(page, 'main', 'focused outlined button')));

      // An info toast: the one that says a download is being prepared (it stays 6 s). A file
      // added first, so the collection's ready archive (the fixture's) no longer holds it all
      // and a new one is prepared, instead of the ready one answering at once.
      await apiUploadFile(
        page.request,
        await sessionToken(page),
        fixture.teamId,
        fixture.collectionId,
        {
          name: `added-${variant.locale}.png`,
          mimeType: 'image/png',
          buffer: gradientPng(40, 30, [200, 60, 60]),
        },
      );
      await downloadAll.click();
      const toast = page.locator('.MuiSnackbar-root .MuiAlert-filledInfo');
      await expect(toast).toBeVisible();
      await page.waitForTimeout(400);
      found.push(...(await contrastOf(page, '.MuiSnackbar-root', 'info toast')));
      await page.screenshot({
        animations: 'disabled',
        path: `${SCREENSHOT_DIR}a11y-info-toast-${italian ? 'it-dark' : 'en-light'}.png`,
      });
      await member.context.close();

      expect(found, `${variant.name}: contrast of hovered and focused states and toasts`).toEqual(
        [],
      );
    });
  }
});

test.describe('keyboard order', () => {
  for (const variant of VARIANTS) {
    test(`"Skip to content" comes first, and a page's main action before its lists: ${variant.name}`, async ({
      browser,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      const italian = variant.locale.startsWith('it');
      const skipName = italian ? 'Vai al contenuto' : 'Skip to content';

      // Signed out, on the landing page: the first Tab, shown, then Enter moves to main.
      const guest = await openContext(browser, baseURL, variant);
      await guest.page.goto('/');
      await settled(guest.page);
      const skip = guest.page.getByRole('link', { name: skipName });
      await expect(skip).not.toBeInViewport();
      await guest.page.keyboard.press('Tab');
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await guest.page.keyboard.press('Enter');
      await expect(guest.page.locator('main')).toBeFocused();
      await expect(guest.page).not.toHaveURL(/#/);
      // The next Tab goes on inside the page, past the header.
      await guest.page.keyboard.press('Tab');
      expect(
        await guest.page.evaluate(() =>
          document.querySelector('main')?.contains(document.activeElement),
        ),
      ).toBe(true);
      // The upload app's sign-in puts the focus in its form; its skip link is first all the same.
      await guest.page.goto('/upload/signin');
      await settled(guest.page);
      expect(
        await guest.page.evaluate(
          () =>
            document.querySelector('a[href], button:not([disabled]), input, [tabindex="0"]')
              ?.textContent,
        ),
      ).toBe(skipName);
      await guest.context.close();

      // The team dashboard: "New collection" comes before the rows and the members panel.
      const member = await openContext(browser, baseURL, variant, fixture.storageState);
      const { page } = member;
      await page.goto(`/teams/${fixture.teamId}`);
      await settled(page);
      const newCollection = italian ? 'Nuova raccolta' : 'New collection';
      const addMember = italian ? 'Aggiungi membro' : 'Add member';
      const order: string[] = [];
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        const now = await page.evaluate(() => {
          const element = document.activeElement;
          if (element === null) return '';
          const name = element.getAttribute('aria-label') ?? element.textContent;
          return `${element.tagName} ${name}`.trim();
        });
        order.push(now);
        if (now.includes(newCollection)) break;
      }
      const at = order.findIndex((entry) => entry.includes(newCollection));
      expect(at, order.join(' | ')).toBeGreaterThan(0);
      const before = order.slice(0, at).join(' | ');
      expect(before).not.toContain('Colori');
      expect(before).not.toContain(addMember);
      await member.context.close();
    });
  }
});
