import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import { apiCreateTeam, sessionToken, signInAsOwner } from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENSHOT_DIR}files-preview-${name}.png`,
  });
}

/** A one-finger swipe through Chromium's own touch input, as a phone sends it. */
async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  const steps = 6;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let i = 1; i <= steps; i++) {
    const point = {
      x: from.x + ((to.x - from.x) * i) / steps,
      y: from.y + ((to.y - from.y) * i) / steps,
    };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('file preview on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('swipes between files with the counter shown; Back and an edge swipe stay in the collection', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const owner = newAccount('preview');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Swipe club', nickname: 'Ada' });
    const collectionId = await apiCreateCollection(request, token, teamId, { name: 'Harbour' });
    const colours: [number, number, number][] = [
      [40, 120, 220],
      [220, 80, 40],
      [30, 160, 90],
    ];
    // Uploaded oldest first: the list shows the newest first, so one.png is first.
    for (const [i, name] of ['three.png', 'two.png', 'one.png'].entries()) {
      await apiUploadFile(request, token, teamId, collectionId, {
        name,
        mimeType: 'image/png',
        buffer: gradientPng(640, 480, colours[i] ?? [0, 0, 0]),
      });
    }

    // Arrive at the collection from the collections screen, as a user would.
    await page.goto(`/teams/${teamId}`);
    await page.getByRole('link', { name: 'Harbour', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour' })).toBeVisible();
    const collectionUrl = page.url();
    const table = page.getByRole('table', { name: 'Files of Harbour' });
    await expect(page.locator('table img[src*="/api/renditions/"]')).toHaveCount(3, {
      timeout: 30_000,
    });
    await table.getByRole('button', { name: 'one.png', exact: true }).click();

    let preview = page.getByRole('dialog', { name: 'one.png' });
    await expect(preview.getByRole('img', { name: 'one.png' })).toBeVisible();
    await expect(preview.getByText('1 of 3')).toBeVisible();
    await shot(page, 'phone-light');

    const middle = { x: PHONE.width / 2, y: PHONE.height / 2 };
    await swipe(page, { x: 300, y: middle.y }, { x: 60, y: middle.y + 10 });
    preview = page.getByRole('dialog', { name: 'two.png' });
    await expect(preview.getByRole('img', { name: 'two.png' })).toBeVisible();
    await expect(preview.getByText('2 of 3')).toBeVisible();
    await swipe(page, { x: 300, y: middle.y }, { x: 60, y: middle.y });
    preview = page.getByRole('dialog', { name: 'three.png' });
    await expect(preview.getByText('3 of 3')).toBeVisible();
    // A swipe from the left edge, the back gesture's place: the previous file, same address.
    await swipe(page, { x: 1, y: middle.y }, { x: 280, y: middle.y });
    preview = page.getByRole('dialog', { name: 'two.png' });
    await expect(preview.getByText('2 of 3')).toBeVisible();
    expect(page.url()).toBe(collectionUrl);

    // Back closes the preview and stays in the collection; one more Back leaves it.
    await page.goBack();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour' })).toBeVisible();
    expect(page.url()).toBe(collectionUrl);
    await page.goBack();
    await expect(page.getByRole('link', { name: 'Harbour', exact: true })).toBeVisible();

    // The same in Italian and dark, and at 1280 px.
    for (const variant of [
      { name: 'phone-dark-it', locale: 'it-IT', colorScheme: 'dark' as const, viewport: PHONE },
      {
        name: 'wide-light',
        locale: 'en-GB',
        colorScheme: 'light' as const,
        viewport: { width: 1280, height: 800 },
      },
      {
        name: 'wide-dark-it',
        locale: 'it-IT',
        colorScheme: 'dark' as const,
        viewport: { width: 1280, height: 800 },
      },
    ]) {
      const context = await browser.newContext({
        baseURL,
        storageState: await page.context().storageState(),
        locale: variant.locale,
        colorScheme: variant.colorScheme,
        viewport: variant.viewport,
        hasTouch: true,
      });
      const other = await context.newPage();
      await other.goto(collectionUrl);
      const italian = variant.locale === 'it-IT';
      await other.getByRole('table').getByRole('button', { name: 'one.png', exact: true }).click();
      const dialog = other.getByRole('dialog', { name: 'one.png' });
      await expect(dialog.getByRole('img', { name: 'one.png' })).toBeVisible();
      await expect(dialog.getByText(italian ? '1 di 3' : '1 of 3')).toBeVisible();
      await shot(other, variant.name);
      await other.goBack();
      await expect(other.getByRole('dialog')).toBeHidden();
      await shot(other, `${variant.name}-list`);
      await context.close();
    }
  });
});
