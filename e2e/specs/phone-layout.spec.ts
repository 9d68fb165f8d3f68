import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import {
  apiCreateTeam,
  apiInvite,
  invitationLink,
  sessionToken,
  signInAsOwner,
} from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 667 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Scrolls `page` from top to bottom in steps; at each step where the cookie button is on screen,
 * its box must not overlap the box of any row of `rows`. Answers how many steps showed it.
 */
async function expectButtonClearOf(page: Page, rows: Locator, what: string): Promise<number> {
  const button = page.getByRole('button', { name: 'Change your cookie choice' });
  // Measured again at every step: thumbnails arriving while it scrolls make the page taller.
  const roomNow = () =>
    page.evaluate(
      () => document.documentElement.scrollHeight - document.documentElement.clientHeight,
    );
  let room = await roomNow();
  let shown = 0;
  for (let y = 0; ; y = Math.min(room, y + 120)) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    // The button slides in and out (a transform transition).
    await page.waitForTimeout(350);
    const box = await button.boundingBox();
    const viewport = page.viewportSize() ?? PHONE;
    if (box !== null && box.y < viewport.height && box.y + box.height > 0) {
      shown += 1;
      for (const row of await rows.all()) {
        const rowBox = await row.boundingBox();
        if (rowBox === null) continue;
        expect(overlaps(box, rowBox), `${what}: the button over a row at scroll ${y}`).toBe(false);
      }
    }
    room = await roomNow();
    if (y >= room) break;
  }
  return shown;
}

test.describe('at 375 px', () => {
  test.use({ viewport: PHONE });

  test('the cookie button covers no row of the collections or files list', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('phone');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Telefono' });
    let collectionId = '';
    for (let i = 1; i <= 12; i++) {
      collectionId = await apiCreateCollection(request, token, teamId, { name: `Raccolta ${i}` });
    }
    for (let i = 1; i <= 12; i++) {
      await apiUploadFile(request, token, teamId, collectionId, {
        name: `photo-${i}.png`,
        mimeType: 'image/png',
        buffer: gradientPng(40, 30, [20 * i, 90, 160]),
      });
    }

    await page.goto(`/teams/${teamId}`);
    const collections = page.getByRole('list', { name: 'Collections' }).getByRole('listitem');
    await expect(collections).toHaveCount(12);
    expect(await expectButtonClearOf(page, collections, 'collections')).toBeGreaterThan(0);
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}reset-button-collections-375.png`,
    });

    await page.goto(`/teams/${teamId}/collections/${collectionId}`);
    const files = page.getByRole('row').filter({ hasText: /photo-\d+\.png/ });
    await expect(files).toHaveCount(12);
    // The rows' thumbnails first, so the page has its final height.
    await expect(page.locator('img[src*="/api/renditions/"]')).toHaveCount(12, {
      timeout: 30_000,
    });
    // Wherever the button shows on this screen, it covers no row.
    await expectButtonClearOf(page, files, 'files');
    await page.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}reset-button-files-375.png`,
    });
  });
});

test.describe('the members panel in Italian', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('each member’s role and status chips sit on one line', async ({
    page: englishPage,
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('membri');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(englishPage, owner.email, owner.password);
    const token = await sessionToken(englishPage);
    const teamId = await apiCreateTeam(request, token, { name: 'Membri' });
    const refused = newAccount('membri.rifiuta');
    for (const [nickname, email, role] of [
      ['Amministra', newAccount('membri.admin').email, 'admin'],
      ['Guarda', newAccount('membri.viewer').email, 'viewer'],
      ['Collabora', newAccount('membri.uploader').email, 'uploader'],
      ['Rifiuta', refused.email, 'viewer'],
    ] as const) {
      await apiInvite(request, token, teamId, { email, nickname, role });
    }
    // One invitation declined: the longest status ("Invito rifiutato").
    const reject = new URL(await invitationLink(refused.email, teamId, 'reject'));
    const res = await request.post(`/api/teams/${teamId}/invitations/reject`, {
      data: { token: reject.searchParams.get('key') },
    });
    expect(res.status()).toBe(200);

    // The same session, in Italian.
    const context = await browser.newContext({
      baseURL,
      locale: 'it-IT',
      viewport: { width: 1280, height: 800 },
      storageState: await englishPage.context().storageState(),
    });
    const page = await context.newPage();
    await page.goto(`/teams/${teamId}`);
    const panel = page.getByRole('complementary', { name: 'Membri' });
    const rows = panel.getByRole('listitem');
    await expect(rows).toHaveCount(5);
    await expect(panel.getByText('Invito rifiutato', { exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const lines = await rows.evaluateAll((items) =>
      items.map((item) => {
        const chips = [...item.querySelectorAll('.MuiChip-root')];
        const tops = new Set(chips.map((chip) => Math.round(chip.getBoundingClientRect().top)));
        const widths = chips.map((chip) => Math.round(chip.getBoundingClientRect().width));
        const room = Math.round(chips[0]?.parentElement?.getBoundingClientRect().width ?? 0);
        return `${item.textContent} (${widths.join(' + ')} px in ${room}): ${chips.length} chips on ${tops.size} line(s)`;
      }),
    );
    expect(
      lines.every((line) => line.endsWith(': 2 chips on 1 line(s)')),
      lines.join('\n'),
    ).toBe(true);
    await panel.screenshot({
      animations: 'disabled',
      path: `${SCREENSHOT_DIR}members-panel-it.png`,
    });
    await context.close();
  });
});
