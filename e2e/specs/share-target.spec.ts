import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { type Account } from '../support/accounts.js';
import { presetConsent } from '../support/consent.js';
import { apiCreateCollection } from '../support/collections.js';
import { noisePng } from '../support/images.js';
import { apiOwnerWithCollection } from '../support/owner.js';
import { expect, test } from '../support/servers.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

interface Browsing {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function open(
  browser: Browser,
  baseURL: string | undefined,
  look: { viewport: { width: number; height: number }; colorScheme: 'light' | 'dark' },
): Promise<Browsing> {
  const phone = look.viewport.width < 600;
  const context = await browser.newContext({
    baseURL,
    viewport: look.viewport,
    colorScheme: look.colorScheme,
    isMobile: phone,
    hasTouch: phone,
  });
  await presetConsent(context, baseURL, false);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return { context, page, errors };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: `${SCREENSHOT_DIR}share-target-${name}.png`,
    fullPage: true,
    animations: 'disabled',
  });
}

/** Waits until the upload app's service worker controls the page. */
async function workerInControl(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      timeout: 20_000,
    })
    .toBe(true);
}

/**
 * Shares files as the phone's share sheet does: a multipart POST navigation to the manifest's
 * share_target action, which the service worker answers (a form, so it goes through the worker's
 * fetch handler like the system's share would).
 */
async function share(page: Page, files: string[]): Promise<void> {
  await page.evaluate(() => {
    const form = document.createElement('form');
    form.method = 'post';
    form.enctype = 'multipart/form-data';
    form.action = '/upload/share';
    form.id = 'share-sheet';
    const input = document.createElement('input');
    input.type = 'file';
    input.name = 'files';
    input.multiple = true;
    const title = document.createElement('input');
    title.type = 'hidden';
    title.name = 'title';
    title.value = 'Shared from the gallery';
    form.append(input, title);
    document.body.append(form);
  });
  await page.locator('#share-sheet input[type=file]').setInputFiles(files);
  await page.evaluate(() => (document.getElementById('share-sheet') as HTMLFormElement).submit());
}

function photosOnDisk(dir: string, names: string[], seed: number): string[] {
  mkdirSync(dir, { recursive: true });
  return names.map((name, index) => {
    const file = path.join(dir, name);
    writeFileSync(file, noisePng(160, 120, seed + index));
    return file;
  });
}

/** Keys in the worker's store of shared files. */
async function keptShares(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const cache = await caches.open('raccolta-share-v1');
    return (await cache.keys()).map((request) => new URL(request.url).pathname);
  });
}

async function signIn(page: Page, account: Account): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Sign in to upload' })).toBeVisible();
  await page.getByLabel('E-mail or username').fill(account.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test.describe('share target', () => {
  test('the manifest declares the share target the worker answers', async ({ request }) => {
    const manifest = (await (await request.get('/manifest.webmanifest')).json()) as {
      scope: string;
      share_target: {
        action: string;
        method: string;
        enctype: string;
        params: { files: { name: string; accept: string[] }[] };
      };
    };
    expect(manifest.share_target).toMatchObject({
      action: '/upload/share',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url' },
    });
    expect(manifest.share_target.params.files[0]?.name).toBe('files');
    expect(manifest.share_target.params.files[0]?.accept).toEqual(
      expect.arrayContaining(['image/*', 'video/*', 'application/pdf']),
    );
  });

  test('a photo shared from the phone lands in the queue of the chosen collection', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    test.setTimeout(150_000);
    const {
      owner,
      token,
      teamId,
      collectionId: regattaId,
    } = await apiOwnerWithCollection(
      request,
      'share.owner',
      { name: 'Harbour Rowing', nickname: 'Ada' },
      { name: 'Regatta 2026' },
    );
    await apiCreateCollection(request, token, teamId, { name: 'Training' });
    const [beach, finish] = photosOnDisk(
      testInfo.outputPath('gallery'),
      ['beach.png', 'finish.png'],
      7,
    );
    if (beach === undefined || finish === undefined) throw new Error('no photos');

    // Not signed in: the share is kept while the phone signs in, then comes back to it.
    const { context, page, errors } = await open(browser, baseURL, {
      viewport: PHONE,
      colorScheme: 'dark',
    });
    await page.goto('/upload/signin');
    await workerInControl(page);
    await share(page, [beach]);
    await expect(page).toHaveURL(/\/upload\/signin$/);
    const kept = await keptShares(page);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^\/__share\/\d+-[0-9a-f-]{36}\/0$/);
    await signIn(page, owner);

    await expect(page).toHaveURL(/\/upload\/share\?id=\d+-[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Send shared files' })).toBeVisible();
    await expect(page.getByText('1 file shared')).toBeVisible();
    await expect(page.getByText(/^beach\.png \(/)).toBeVisible();
    // Which collection: two to choose from and nothing remembered yet.
    const choice = page.getByRole('radiogroup', { name: 'Collection' });
    await expect(choice.getByRole('radio')).toHaveCount(2);
    const send = page.getByRole('button', { name: 'Upload the file here' });
    await expect(send).toBeDisabled();
    await shot(page, 'phone-dark');
    await choice.getByRole('radio', { name: 'Regatta 2026' }).check();
    await send.click();

    // The collection's upload screen, with the photo in its queue; the share is forgotten.
    await expect(page).toHaveURL(new RegExp(`/upload/teams/${teamId}/collections/${regattaId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Regatta 2026' })).toBeVisible();
    const queue = page.getByRole('region', { name: 'Uploads' });
    await expect(queue).toContainText('beach.png');
    await expect(queue).toContainText('1 of 1 uploaded', { timeout: 30_000 });
    await shot(page, 'queued-phone-dark');
    expect(await keptShares(page)).toEqual([]);
    const list = await request.get(`/api/teams/${teamId}/collections/${regattaId}/files`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(list.status()).toBe(200);
    const names = ((await list.json()) as { files: { name: string }[] }).files.map((f) => f.name);
    expect(names).toEqual(['beach.png']);

    // Shared again, signed in: the last collection is preselected, and the queue's duplicate
    // check skips the photo already there.
    await share(page, [beach, finish]);
    await expect(page).toHaveURL(/\/upload\/share\?id=/);
    const oldShare = page.url();
    await expect(page.getByText('2 files shared')).toBeVisible();
    await expect(choice.getByRole('radio', { name: 'Regatta 2026' })).toBeChecked();
    await page.getByRole('button', { name: 'Upload 2 files here' }).click();
    await expect(page).toHaveURL(new RegExp(`/collections/${regattaId}$`));
    await expect(queue.getByText('Already in this collection')).toBeVisible({ timeout: 30_000 });
    await expect(queue).toContainText('finish.png');
    await expect
      .poll(
        async () => {
          const again = await request.get(`/api/teams/${teamId}/collections/${regattaId}/files`, {
            headers: { authorization: `Bearer ${token}` },
          });
          return ((await again.json()) as { files: { name: string }[] }).files
            .map((f) => f.name)
            .sort();
        },
        { timeout: 30_000 },
      )
      .toEqual(['beach.png', 'finish.png']);

    // The same share opened again: its files are gone, and the page says so with a way on.
    await page.goto(oldShare);
    await expect(page.getByText(/The shared files are no longer here/)).toBeVisible();
    await page.getByRole('link', { name: 'Open the app' }).click();
    await expect(page).toHaveURL(/\/upload\/teams\//);
    expect(errors).toEqual([]);
    await context.close();

    // A desktop browser with the app installed, light: the same page.
    const desk = await open(browser, baseURL, { viewport: DESKTOP, colorScheme: 'light' });
    await desk.page.goto('/upload/signin');
    await signIn(desk.page, owner);
    await expect(desk.page).toHaveURL(/\/upload\/teams\//);
    await workerInControl(desk.page);
    await share(desk.page, [finish]);
    await expect(desk.page.getByText('1 file shared')).toBeVisible();
    await expect(desk.page.getByRole('radio')).toHaveCount(2);
    await shot(desk.page, 'desktop-light');
    expect(desk.errors).toEqual([]);
    await desk.context.close();
  });
});
