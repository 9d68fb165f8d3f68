import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { makePdf } from '../../apps/api/src/files/pdf.fixture.js';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { watchConsole } from '../support/browser.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { apiCreateTeam, sessionToken, signInAsOwner } from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ animations: 'disabled', path: `${SCREENSHOT_DIR}pdf-${name}.png` });
}

/** Waits for the worker to draw the first page: the file list then carries a thumbnail link. */
async function thumbnailReady(
  request: APIRequestContext,
  token: string,
  filesPath: string,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api${filesPath}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const { files } = (await res.json()) as { files: { thumbnailUrl: string | null }[] };
        return files[0]?.thumbnailUrl ?? null;
      },
      { timeout: 60_000 },
    )
    .toMatch(/\/api\/renditions\//);
}

/** The browser's own PDF viewer has opened inside the preview's frame. */
async function viewerShown(page: Page): Promise<void> {
  await expect
    .poll(() => page.frames().some((frame) => frame.url().startsWith('chrome-extension://')), {
      timeout: 20_000,
    })
    .toBe(true);
  // The viewer draws the page a moment after it opens.
  await page.waitForTimeout(1500);
}

test.describe('PDFs', () => {
  test('a PDF gets a thumbnail of its first page and opens in the browser’s viewer', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const errors = watchConsole(page);
    const owner = newAccount('documents');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Archivio' });
    const collectionId = await apiCreateCollection(request, token, teamId, { name: 'Verbali' });
    await apiUploadFile(request, token, teamId, collectionId, {
      name: 'minutes.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf({ pages: 2 }),
    });
    const filesPath = `/teams/${teamId}/collections/${collectionId}`;
    await thumbnailReady(request, token, `${filesPath}/files`);

    await page.setViewportSize(DESKTOP);
    await page.goto(filesPath);
    const thumbnail = page.locator('img[src*="/api/renditions/"]');
    await expect(thumbnail).toBeVisible({ timeout: 20_000 });
    // Drawn, not a broken image: the first page at 40 px. Visible comes before loaded: the
    // browser has finished with the image (loaded or broken) once `complete` is true.
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete)).toBe(true);
    expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(
      0,
    );
    await shot(page, 'list-light');

    await page.getByText('minutes.pdf').click();
    const dialog = page.getByRole('dialog', { name: 'minutes.pdf' });
    const frame = dialog.locator('iframe[title="The PDF “minutes.pdf”"]');
    await expect(frame).toBeVisible({ timeout: 20_000 });
    expect(await frame.getAttribute('src')).toMatch(/\/api\/storage\//);
    await viewerShown(page);
    await shot(page, 'preview-light');
    expect(errors).toEqual([]);

    // Dark, on a wide screen and on a phone; light on a phone.
    for (const [name, viewport, colorScheme] of [
      ['preview-dark', DESKTOP, 'dark'],
      ['preview-phone-light', PHONE, 'light'],
      ['preview-phone-dark', PHONE, 'dark'],
    ] as const) {
      const context = await browser.newContext({
        baseURL,
        storageState: await page.context().storageState(),
        viewport,
        colorScheme,
        ...(viewport === PHONE ? { isMobile: true, hasTouch: true } : {}),
      });
      const other = await context.newPage();
      const otherErrors = watchConsole(other);
      await other.goto(filesPath);
      if (viewport === PHONE) await shot(other, `list-${name.replace('preview-', '')}`);
      await other.getByText('minutes.pdf').first().click();
      await expect(
        other.getByRole('dialog').locator('iframe[title="The PDF “minutes.pdf”"]'),
      ).toBeVisible({ timeout: 20_000 });
      await viewerShown(other);
      await shot(other, name);
      await context.close();
      expect(otherErrors, name).toEqual([]);
    }
  });
});
