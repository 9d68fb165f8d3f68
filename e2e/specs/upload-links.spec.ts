import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Page } from '@playwright/test';
import { watchConsole } from '../support/browser.js';
import { presetConsent } from '../support/consent.js';
import { noisePng } from '../support/images.js';
import { signInAsOwner } from '../support/teams.js';
import { apiOwnerWithCollection } from '../support/owner.js';
import { expect, test } from '../support/servers.js';

/*
 * Upload links for guests (issue #36): an owner makes a link in the team app; a guest opens it
 * on a phone, gives a name, uploads, and sees only their own files; the owner sees "Guest: Anna"
 * and filters by her; a disabled link shows the unavailable page.
 */

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: `${SCREENSHOT_DIR}upload-links-${name}.png`,
    fullPage: true,
    animations: 'disabled',
  });
}

function onDisk(dir: string, name: string, bytes: Buffer): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

const b64 = (value: string) => Buffer.from(value).toString('base64');

/** Another guest, in another browser: opens the link and sends one file with tus, by the API. */
async function apiGuestUpload(
  request: APIRequestContext,
  linkToken: string,
  guestName: string,
  file: { name: string; buffer: Buffer },
): Promise<void> {
  const opened = await request.post(`/api/guest/links/${linkToken}/open`, { data: {} });
  expect(opened.status()).toBe(200);
  const { guestToken } = (await opened.json()) as { guestToken: string };
  const headers = { authorization: `Bearer ${guestToken}`, 'tus-resumable': '1.0.0' };
  const created = await request.post('/api/guest/uploads', {
    headers: {
      ...headers,
      'upload-length': String(file.buffer.length),
      'upload-metadata': `filename ${b64(file.name)},guestName ${b64(guestName)}`,
    },
  });
  expect(created.status()).toBe(201);
  const location = created.headers().location ?? '';
  const sent = await request.patch(new URL(location, 'http://x').pathname, {
    headers: {
      ...headers,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    data: file.buffer,
  });
  expect(sent.status()).toBe(204);
}

test.describe('upload links for guests', () => {
  test('a guest uploads through a link on a phone; the owner sees and filters by the guest', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    test.setTimeout(180_000);
    const { owner, teamId, collectionId } = await apiOwnerWithCollection(
      request,
      'links.owner',
      { name: 'Rossi Family' },
      { name: 'Wedding', description: 'Photos of the day, from everyone who was there.' },
    );

    // The owner makes a link in the team app, on a desktop, light.
    const desk = await browser.newContext({ baseURL, viewport: DESKTOP, colorScheme: 'light' });
    await presetConsent(desk, baseURL, false);
    const page = await desk.newPage();
    const ownerErrors = watchConsole(page);
    await signInAsOwner(page, owner.email, owner.password);
    await page.goto(`/teams/${teamId}`);
    const row = page
      .getByRole('list', { name: 'Collections' })
      .getByRole('listitem')
      .filter({ hasText: 'Wedding' });
    await row.getByRole('button', { name: 'Actions for Wedding' }).click();
    await page.getByRole('menuitem', { name: 'Upload links' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload links: Wedding' });
    await dialog.getByLabel('Name (optional)').fill('At the door');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await expect(dialog.getByText('At the door')).toBeVisible();
    await expect(dialog.getByRole('img', { name: 'QR code of At the door' })).toBeVisible();
    const url = (await dialog.getByText(/\/upload\/l\//).textContent()) ?? '';
    const linkPath = new URL(url).pathname;
    const linkToken = linkPath.split('/').pop() ?? '';
    await shot(dialog.page(), 'dialog-desktop-light');

    // The QR code as a PNG of printable size, drawn from its SVG.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Download the QR code of At the door as a PNG' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('qr-at-the-door.png');
    const png = readFileSync(await download.path());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 1200]);

    // The printable poster, from the dialog, in a new tab.
    const [poster] = await Promise.all([
      desk.waitForEvent('page'),
      dialog.getByRole('link', { name: 'Open the printable poster of At the door' }).click(),
    ]);
    await expect(poster.getByRole('heading', { name: 'Wedding' })).toBeVisible();
    await expect(poster.getByRole('img', { name: 'QR code of At the door' })).toBeVisible();
    await expect(poster.getByText(url.replace(/^https?:\/\//, ''))).toBeVisible();
    await shot(poster, 'poster-desktop-light');
    // Printed: the A5 sheet alone, without the app's header and buttons.
    await poster.getByRole('button', { name: 'A5' }).click();
    await poster.emulateMedia({ media: 'print' });
    await expect(poster.getByRole('button', { name: 'Print' })).toBeHidden();
    await shot(poster, 'poster-print-a5');
    await poster.close();
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Another guest sends a file through the same link first.
    await apiGuestUpload(request, linkToken, 'Bea', {
      name: 'bea-cake.png',
      buffer: noisePng(160, 120, 91),
    });

    // Anna, on her phone, dark.
    const phone = await browser.newContext({
      baseURL,
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'dark',
      serviceWorkers: 'block',
    });
    await presetConsent(phone, baseURL, false);
    const guest = await phone.newPage();
    // The page asks for the link's state at every opening: a closed one answers 404.
    const guestErrors = watchConsole(guest, [404]);
    await guest.goto(linkPath);
    await expect(guest.getByRole('heading', { level: 1, name: 'Wedding' })).toBeVisible();
    await expect(guest.getByText('Rossi Family')).toBeVisible();
    await expect(guest.getByText('Photos of the day, from everyone who was there.')).toBeVisible();
    await expect(guest.getByRole('button', { name: 'Choose files' })).toBeDisabled();
    await guest.getByLabel('Your name').fill('Anna');
    const files = [
      onDisk(testInfo.outputPath('anna'), 'first-dance.png', noisePng(200, 150, 92)),
      onDisk(testInfo.outputPath('anna'), 'rings.png', noisePng(200, 150, 93)),
    ];
    await guest.getByLabel('Choose files').setInputFiles(files);
    await expect(guest.getByRole('region', { name: 'Uploads', exact: true })).toContainText(
      '2 of 2 uploaded',
      { timeout: 60_000 },
    );
    const mine = guest.getByRole('list', { name: 'Sent from this browser' });
    await expect(mine.getByRole('listitem')).toHaveCount(2);
    await expect(mine.getByText('first-dance.png')).toBeVisible();
    await expect(mine.getByText('rings.png')).toBeVisible();
    // Bea's file and name never reach Anna's page.
    await expect(guest.getByText('bea-cake.png')).toHaveCount(0);
    await expect(guest.getByText('Bea')).toHaveCount(0);
    await shot(guest, 'guest-phone-dark');
    // The same page on a desktop, light: Anna's files only, from her browser's storage.
    const annaState = await phone.storageState();
    const wide = await browser.newContext({
      baseURL,
      viewport: DESKTOP,
      colorScheme: 'light',
      storageState: annaState,
    });
    const guestWide = await wide.newPage();
    const wideErrors = watchConsole(guestWide);
    await guestWide.goto(linkPath);
    await expect(
      guestWide.getByRole('list', { name: 'Sent from this browser' }).getByRole('listitem'),
    ).toHaveCount(2);
    await shot(guestWide, 'guest-desktop-light');
    expect(wideErrors).toEqual([]);
    await wide.close();

    // The owner sees who sent what, and narrows the list to Anna.
    await page.goto(`/teams/${teamId}/collections/${collectionId}`);
    const table = page.getByRole('table', { name: 'Files of Wedding' });
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(table.getByText('Guest: Anna')).toHaveCount(2);
    await expect(table.getByText('Guest: Bea')).toHaveCount(1);
    await table.getByRole('button', { name: 'Show only the files of Guest: Anna' }).first().click();
    await expect(page).toHaveURL(/[?&]guest=Anna/);
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByText('bea-cake.png')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Remove the filter Guest: Anna' })).toBeVisible();
    await shot(page, 'files-desktop-light');

    // The owner closes the link: Anna's next visit shows the unavailable page.
    await page.goto(`/teams/${teamId}`);
    await row.getByRole('button', { name: 'Actions for Wedding' }).click();
    await page.getByRole('menuitem', { name: 'Upload links' }).click();
    await dialog.getByRole('switch', { name: 'Open' }).click();
    await expect(dialog.getByRole('switch', { name: 'Closed' })).not.toBeChecked();
    await guest.reload();
    await expect(
      guest.getByRole('heading', { level: 1, name: 'This link is not available' }),
    ).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Go to Raccolta' })).toBeVisible();
    await shot(guest, 'unavailable-phone-dark');

    expect(ownerErrors).toEqual([]);
    expect(guestErrors).toEqual([]);
    await phone.close();
    await desk.close();
  });
});
