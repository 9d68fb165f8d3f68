import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { watchConsole } from '../support/browser.js';
import {
  apiCreateCollection,
  apiMyUserId,
  apiTagCollection,
  apiUploadFile,
} from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import { apiCreateTeam, sessionToken, signInAsOwner } from '../support/teams.js';
import { apiJoinedMember } from '../support/owner.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENSHOT_DIR}collections-${name}.png`,
    fullPage: true,
  });
}

/** Reloads the files list until every image row shows its thumbnail (made by a background job). */
/** Thumbnails replace the icons by themselves, without Refresh: the list asks while they are made. */
async function waitForThumbnails(page: Page, count: number): Promise<void> {
  await expect(page.locator('table img[src*="/api/renditions/"]')).toHaveCount(count, {
    timeout: 30_000,
  });
}

test.describe('collections and files', () => {
  test('create, upload, browse, filter by date, creator and tag, preview, download; Italian, dark, phone', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const owner = newAccount('curator');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const ownerToken = await sessionToken(page);
    const ownerId = await apiMyUserId(request, ownerToken);
    const teamId = await apiCreateTeam(request, ownerToken, {
      name: 'Photo club',
      nickname: 'Ada',
    });

    // A second member, who uploads too and owns another collection.
    const { token: colleagueToken } = await apiJoinedMember(
      request,
      ownerToken,
      teamId,
      'colleague',
      { nickname: 'Bruno', role: 'admin' },
    );
    const winter = await apiCreateCollection(request, colleagueToken, teamId, {
      name: 'Winter walk',
      mode: 'owned',
    });
    await apiTagCollection(request, colleagueToken, teamId, winter, [ownerId]);

    // The owner creates a collection in the dialog.
    await page.goto(`/teams/${teamId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Photo club' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Collections' });
    await expect(list.getByRole('link', { name: 'Winter walk', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'New collection' }).first().click();
    const create = page.getByRole('dialog', { name: 'New collection' });
    await create.getByLabel('Collection name').fill('S');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create.getByLabel('Collection name')).toHaveAttribute('aria-invalid', 'true');
    await create.getByLabel('Collection name').fill('Summer trip');
    await create.getByLabel('Description').fill('Photos from the lake');
    // Shared is the default: the contributors can see it and upload.
    await expect(
      create.getByRole('radio', { name: 'Contributors can see and upload' }),
    ).toBeChecked();
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create).toBeHidden();
    await expect(list.getByRole('link', { name: 'Summer trip', exact: true })).toBeVisible();
    await shot(page, 'list-light');

    // Filter by tagged member, then by creator; the title clears everything.
    await page.getByRole('button', { name: 'Show the collections tagged with Ada' }).click();
    await expect(page.getByRole('button', { name: 'Tagged: Ada' })).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByRole('link', { name: 'Winter walk', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Collections', exact: true }).click();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await page.getByRole('button', { name: 'Show the collections created by Bruno' }).click();
    await expect(page.getByRole('button', { name: 'Created by: Bruno' })).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await page.getByRole('button', { name: 'Collections', exact: true }).click();
    await expect(list.getByRole('listitem')).toHaveCount(2);

    // Open the new collection and upload three photos; Bruno adds one through the API.
    await list.getByRole('link', { name: 'Summer trip', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Summer trip' })).toBeVisible();
    await expect(page.getByText('No files yet')).toBeVisible();
    await page.getByLabel('Upload files').setInputFiles([
      { name: 'lake.png', mimeType: 'image/png', buffer: gradientPng(640, 480, [40, 120, 220]) },
      { name: 'boat.png', mimeType: 'image/png', buffer: gradientPng(480, 640, [220, 80, 40]) },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Bring the tripod.\n') },
    ]);
    await expect(page.getByRole('region', { name: 'Uploads' })).toContainText('3 of 3 uploaded');
    const collectionId = page.url().split('/').at(-1) ?? '';
    await apiUploadFile(request, colleagueToken, teamId, collectionId, {
      name: 'sunset.png',
      mimeType: 'image/png',
      buffer: gradientPng(800, 600, [250, 160, 30]),
    });
    const table = page.getByRole('table', { name: 'Files of Summer trip' });
    // Someone else's upload shows on Refresh; the thumbnails then arrive by themselves.
    await expect(table.getByRole('button', { name: 'boat.png', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(table.getByRole('button', { name: 'sunset.png', exact: true })).toBeVisible();
    await waitForThumbnails(page, 3);
    await expect(table.getByRole('button', { name: 'notes.txt', exact: true })).toBeVisible();
    // The three uploaded here are read for their uploader; Bruno's is not.
    await expect(table.getByRole('img', { name: 'Unread' })).toHaveCount(1);
    await shot(page, 'files-light');

    // Creator filter.
    await table.getByRole('button', { name: 'Show only the files uploaded by Bruno' }).click();
    await expect(
      page.getByRole('button', { name: 'Uploaded by Bruno: remove this filter' }),
    ).toBeVisible();
    await expect(table.getByRole('button', { name: 'sunset.png', exact: true })).toBeVisible();
    await expect(table.getByRole('button', { name: 'lake.png', exact: true })).toBeHidden();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(table.getByRole('button', { name: 'lake.png', exact: true })).toBeVisible();

    // Date filter: from today keeps everything; a range ending yesterday keeps nothing.
    await page.getByRole('button', { name: 'Choose the start date' }).click();
    const calendar = page.getByRole('dialog').or(page.getByRole('tooltip')).last();
    await calendar
      .getByRole('gridcell', { name: String(new Date().getDate()), exact: true })
      .click();
    await expect(page).toHaveURL(/from=\d+/);
    await expect(table.getByRole('button', { name: 'lake.png', exact: true })).toBeVisible();
    const startOfToday = new Date();
    startOfToday.setHours(0, 0, 0, 0);
    await page.goto(`${page.url().split('?')[0]}?to=${startOfToday.getTime() - 1}`);
    await expect(page.getByRole('button', { name: 'Clear filters' }).first()).toBeEnabled();
    await expect(page.getByRole('table', { name: 'Files of Summer trip' })).toBeHidden();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(table.getByRole('button', { name: 'lake.png', exact: true })).toBeVisible();

    // Preview with previous / next, download, close.
    await table.getByRole('button', { name: 'sunset.png', exact: true }).click();
    let preview = page.getByRole('dialog', { name: 'sunset.png' });
    await expect(preview.getByRole('img', { name: 'sunset.png' })).toBeVisible();
    await expect(preview.getByRole('button', { name: 'Previous file' })).toBeDisabled();
    await preview.getByRole('button', { name: 'Next file' }).click();
    preview = page.getByRole('dialog', { name: 'notes.txt' });
    await expect(preview).toBeVisible();
    await page.keyboard.press('ArrowLeft');
    preview = page.getByRole('dialog', { name: 'sunset.png' });
    await expect(preview).toBeVisible();
    await shot(page, 'preview-light');
    const downloading = page.waitForEvent('download');
    await preview.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('sunset.png');
    await preview.getByRole('button', { name: 'Close' }).click();
    await expect(preview).toBeHidden();
    // Opened files count as read; a file can be marked unread again, and all read at once.
    await expect(table.getByRole('img', { name: 'Unread' })).toHaveCount(0);
    await table.getByRole('button', { name: 'Actions for lake.png' }).click();
    await page.getByRole('menuitem', { name: 'Mark as unread' }).click();
    await expect(table.getByRole('img', { name: 'Unread' })).toHaveCount(1);
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect(page.getByText('Every file of this collection is marked as read.')).toBeVisible();
    await expect(table.getByRole('img', { name: 'Unread' })).toHaveCount(0);

    // Download from the row menu.
    await table.getByRole('button', { name: 'Actions for lake.png' }).click();
    const rowDownload = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Download' }).click();
    expect((await rowDownload).suggestedFilename()).toBe('lake.png');

    // The same screens in Italian, dark, on a phone, with the same session.
    const context = await browser.newContext({
      baseURL,
      storageState: await page.context().storageState(),
      locale: 'it-IT',
      colorScheme: 'dark',
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    const phone = await context.newPage();
    // The preview that fails on purpose below answers 503; nothing else may.
    const phoneErrors = watchConsole(phone, [503]);
    await phone.goto(`/teams/${teamId}`);
    await expect(phone.getByRole('heading', { name: 'Raccolte' })).toBeVisible();
    await expect(phone.getByRole('link', { name: 'Summer trip', exact: true })).toBeVisible();
    await shot(phone, 'list-dark-phone-it');
    await phone.getByRole('link', { name: 'Summer trip', exact: true }).click();
    await expect(phone.getByRole('heading', { level: 1, name: 'Summer trip' })).toBeVisible();
    await expect(phone.getByRole('button', { name: 'Carica file' })).toBeVisible();
    await waitForThumbnailsIt(phone);
    const noOverflow = await phone.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(noOverflow).toBe(true);
    await shot(phone, 'files-dark-phone-it');
    await phone.getByRole('button', { name: 'lake.png', exact: true }).first().click();
    await expect(phone.getByRole('dialog', { name: 'lake.png' })).toBeVisible();
    await shot(phone, 'preview-dark-phone-it');
    await phone
      .getByRole('dialog', { name: 'lake.png' })
      .getByRole('button', { name: 'Chiudi' })
      .click();

    // A preview that cannot be loaded says so (spec §2, loadingFile), and Retry shows it once it
    // can be: the picture was not loaded yet in this browser, so the failure reaches it.
    await phone.route('**/api/renditions/**', (route) => route.fulfill({ status: 503 }));
    await phone.getByRole('button', { name: 'sunset.png', exact: true }).first().click();
    const failed = phone.getByRole('dialog', { name: 'sunset.png' });
    await expect(failed.getByRole('alert')).toHaveText(/Impossibile caricare il file\./);
    await expect(failed.getByRole('img', { name: 'sunset.png' })).toBeHidden();
    await shot(phone, 'preview-failed-dark-phone-it');
    await phone.unroute('**/api/renditions/**');
    await failed.getByRole('button', { name: 'Riprova' }).click();
    await expect(failed.getByRole('img', { name: 'sunset.png' })).toBeVisible();
    await expect(failed.getByRole('alert')).toBeHidden();
    await failed.getByRole('button', { name: 'Chiudi' }).click();

    // The owner deletes the colleague's collection, asked first, and it is gone for everyone.
    await phone.goto(`/teams/${teamId}`);
    await phone.getByRole('button', { name: 'Azioni per Winter walk' }).click();
    await phone.getByRole('menuitem', { name: 'Elimina' }).click();
    const confirm = phone.getByRole('dialog', { name: 'Eliminare «Winter walk»?' });
    await expect(confirm).toContainText(
      'nel cestino del team, da cui proprietari e amministratori',
    );
    await shot(phone, 'delete-dark-phone-it');
    await confirm.getByRole('button', { name: 'Elimina' }).click();
    await expect(phone.getByText('«Winter walk» è stata spostata nel cestino.')).toBeVisible();
    await expect(phone.getByRole('link', { name: 'Winter walk', exact: true })).toBeHidden();
    const gone = await request.get(`/api/teams/${teamId}/collections/${winter}`, {
      headers: { authorization: `Bearer ${colleagueToken}` },
    });
    expect(gone.status()).toBe(404);
    await context.close();
    expect(phoneErrors).toEqual([]);
  });
});

async function waitForThumbnailsIt(page: Page): Promise<void> {
  await expect(page.locator('img[src*="/api/renditions/"]').first()).toBeVisible({
    timeout: 15_000,
  });
}
