import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Route } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { presetConsent } from '../support/consent.js';
import { apiCreateCollection, apiSignIn } from '../support/collections.js';
import { noisePng } from '../support/images.js';
import {
  apiAddAlias,
  apiAddInternal,
  apiCreateTeam,
  openMenuItem,
  signInAsOwner,
  uniqueSuffix,
} from '../support/teams.js';
import { apiOwnerWithCollection } from '../support/owner.js';
import { expect, test } from '../support/servers.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
/** The phone the upload app is made for, and the slightly wider one of the other specs. */
const PHONE = { width: 360, height: 740 };
const PHONE_375 = { width: 375, height: 740 };
const FAILED_RESOURCE = /Failed to load resource: the server responded with a status of (\d+)/;
/** What Chromium logs for each request that a cut connection fails: provoked here on purpose. */
const DISCONNECTED = /net::ERR_INTERNET_DISCONNECTED/;
const UPLOADS = /\/api\/teams\/[^/]+\/collections\/[^/]+\/uploads(\/|$)/;

interface Phone {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * A phone's browser. Its console must stay clean, except the HTTP errors a flow provokes on
 * purpose (the first sign-in's 403 newPasswordRequired) and the requests a cut connection fails.
 */
async function phone(
  browser: Browser,
  baseURL: string | undefined,
  options: BrowserContextOptions = {},
  allowedStatuses: number[] = [],
): Promise<Phone> {
  const context = await browser.newContext({
    baseURL,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    ...options,
  });
  if (options.storageState === undefined) await presetConsent(context, baseURL, false);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const status = FAILED_RESOURCE.exec(message.text())?.[1];
    if (status !== undefined && allowedStatuses.includes(Number(status))) return;
    if (DISCONNECTED.test(message.text())) return;
    errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  // Leaving mid-upload asks first (the files would have to be chosen again): say yes.
  page.on('dialog', (dialog) => void dialog.accept());
  return { context, page, errors };
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({
    path: `${SCREENSHOT_DIR}upload-app-${name}.png`,
    fullPage,
    animations: 'disabled',
  });
}

/** Photos on disk: choosing a file again must give the same File (name, size, date). */
function photosOnDisk(dir: string, names: string[], seed: number): string[] {
  mkdirSync(dir, { recursive: true });
  return names.map((name, index) => {
    const file = path.join(dir, name);
    // About 2.4 MB each: noise does not compress.
    writeFileSync(file, noisePng(900, 900, seed + index));
    return file;
  });
}

/** Slows the phone's uploads to `bytesPerSecond` (Chromium's network emulation). */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

test.describe('upload app', () => {
  test('an internal contributor uploads photos on a phone through a cut connection and a reload', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    test.setTimeout(240_000);
    // The team, its internal contributor and two collections, made through the API.
    const owner = newAccount('uploads.owner');
    await createVerifiedAccount(request, owner);
    const ownerToken = await apiSignIn(request, owner.email, owner.password);
    const teamId = await apiCreateTeam(request, ownerToken, {
      name: 'Riverside Choir',
      nickname: 'Ada',
    });
    const alias = `riverside-${uniqueSuffix()}`;
    await apiAddAlias(request, ownerToken, teamId, alias);
    const generated = await apiAddInternal(request, ownerToken, teamId, 'luca.bianchi');
    const collectionId = await apiCreateCollection(request, ownerToken, teamId, {
      name: 'Spring concert',
    });
    await apiCreateCollection(request, ownerToken, teamId, { name: 'Rehearsals' });

    const creations: string[] = [];
    const { context, page, errors } = await phone(
      browser,
      baseURL,
      // page.route must see every upload request: no service worker in between.
      { serviceWorkers: 'block' },
      [403],
    );
    const patchOffsets: number[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && UPLOADS.test(req.url())) creations.push(req.url());
      if (req.method() === 'PATCH' && UPLOADS.test(req.url())) {
        patchOffsets.push(Number(req.headers()['upload-offset']));
      }
    });

    // Sign in inside the upload app: username, team code, then the first-sign-in password.
    await page.goto('/upload');
    await expect(page).toHaveURL(/\/upload\/signin$/);
    await expect(page.getByRole('heading', { name: 'Sign in to upload' })).toBeVisible();
    await page.getByLabel('E-mail or username').fill('luca.bianchi');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(generated);
    await page.getByLabel('Team code').fill(alias);
    await shot(page, 'signin-light');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    await page.getByLabel('New password').fill('Contrib-pass-9');
    await page.getByLabel('Confirm password').fill('Contrib-pass-9');
    await page.getByRole('button', { name: 'Save and sign in' }).click();

    // One team: straight to its collections.
    await expect(page).toHaveURL(new RegExp(`/upload/teams/${alias}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Riverside Choir' })).toBeVisible();
    const collections = page.getByRole('list', { name: 'Collections' });
    await expect(collections.getByRole('link')).toHaveCount(2);
    await expect(page.getByRole('button', { name: 'New collection' })).toBeVisible();
    await shot(page, 'collections-light');
    await collections.getByRole('link', { name: /Spring concert/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Spring concert' })).toBeVisible();
    await expect(page.getByText('You have not uploaded any file here yet.')).toBeVisible();
    await shot(page, 'collection-empty-light');

    // Four photos "from the camera", on a slow connection that is cut halfway.
    const photos = photosOnDisk(
      testInfo.outputPath('photos'),
      ['choir-1.png', 'choir-2.png', 'choir-3.png', 'choir-4.png'],
      1,
    );
    await throttleUploads(page, 1024 * 1024);
    await page.getByLabel('Take photos').setInputFiles(photos);
    const queue = page.getByRole('region', { name: 'Uploads' });
    await expect(queue).toContainText('0 of 4 uploaded');
    // Two at a time: wait until the first two have sent some of their bytes.
    await expect(queue.getByText(/^(?:[1-9]\d?)%$/)).toHaveCount(2, { timeout: 20_000 });
    await shot(page, 'uploading-light');

    await context.setOffline(true);
    await expect(page.getByText('You are offline.', { exact: false })).toBeVisible();
    await expect(queue.getByText(/^Paused at \d+%: no connection$/)).toHaveCount(2);
    await expect(queue.getByText('Waiting for the connection')).toHaveCount(2);
    await shot(page, 'offline-light');
    const createdBeforeCut = creations.length;

    await context.setOffline(false);
    await expect(page.getByText('You are offline.', { exact: false })).toBeHidden();
    await expect(queue).toContainText('4 of 4 uploaded', { timeout: 60_000 });
    // The two cut uploads resumed: no new upload was created for them, and they went on from
    // the bytes the server had kept.
    expect(createdBeforeCut).toBe(2);
    expect(creations).toHaveLength(4);
    expect(patchOffsets.filter((offset) => offset > 0)).toHaveLength(2);
    const mine = page.getByRole('list', { name: 'Your files in Spring concert' });
    await expect(mine.getByRole('listitem')).toHaveCount(4);
    await shot(page, 'uploaded-light');

    // Two more, held on their way, then the tab is reloaded: the File objects are gone.
    const more = photosOnDisk(testInfo.outputPath('more'), ['solo-1.png', 'solo-2.png'], 11);
    const held: Route[] = [];
    await page.route(UPLOADS, async (route) => {
      if (route.request().method() === 'PATCH') held.push(route);
      else await route.continue();
    });
    await page.getByLabel('Choose files').setInputFiles(more);
    await expect.poll(() => held.length).toBe(2);
    await page.reload();
    await page.unroute(UPLOADS);
    const interrupted = page.getByRole('region', { name: 'Interrupted uploads' });
    await expect(interrupted.getByText('solo-1.png')).toBeVisible();
    await expect(interrupted.getByText('solo-2.png')).toBeVisible();
    await expect(interrupted).toContainText('Choose the same files again');
    await shot(page, 'interrupted-light');

    await page.getByLabel('Choose files').setInputFiles(more);
    await expect(queue).toContainText('2 of 2 uploaded', { timeout: 60_000 });
    await expect(queue).toContainText('Uploaded');
    await expect(interrupted).toBeHidden();
    // Resumed, not uploaded afresh: still six uploads created in all.
    expect(creations).toHaveLength(6);
    await expect(mine.getByRole('listitem')).toHaveCount(6);
    const noOverflow = await page.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(noOverflow).toBe(true);

    // From the upload app to the team app and back.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Open the team app' }).click();
    await expect(page).toHaveURL(new RegExp(`/teams/${alias}/collections/${collectionId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Spring concert' })).toBeVisible();
    await openMenuItem(page, 'Account menu', 'Upload app');
    await expect(page).toHaveURL(new RegExp(`/upload/teams/${alias}$`));

    // The same screens in dark, and in Italian at 375 px, with the same session.
    const state = await context.storageState();
    const extra = photosOnDisk(testInfo.outputPath('extra'), ['encore.png'], 21);
    for (const variant of [
      { name: 'dark', options: { colorScheme: 'dark' as const }, photos: 6 },
      { name: 'it-375', options: { locale: 'it-IT', viewport: PHONE_375 }, photos: 7 },
    ]) {
      const other = await phone(browser, baseURL, { storageState: state, ...variant.options });
      await other.page.goto(`/upload/teams/${alias}/collections/${collectionId}`);
      await expect(
        other.page.getByRole('heading', { level: 1, name: 'Spring concert' }),
      ).toBeVisible();
      await expect(other.page.locator('img[src*="/api/renditions/"]')).toHaveCount(variant.photos, {
        timeout: 30_000,
      });
      await shot(other.page, `collection-${variant.name}`);
      if (variant.name === 'dark') {
        await other.page.getByLabel('Take photos').setInputFiles(extra);
        await expect(other.page.getByRole('region', { name: 'Uploads' })).toContainText(
          '1 of 1 uploaded',
        );
        await shot(other.page, 'uploaded-dark');
      }
      await other.page.goto(`/upload/teams/${alias}`);
      await expect(other.page.getByRole('list').first()).toBeVisible();
      await shot(other.page, `collections-${variant.name}`);
      await other.context.close();
      expect(other.errors).toEqual([]);
    }
    await context.close();
    expect(errors).toEqual([]);

    // The team's owner sees the six photos in the team app.
    const admin = await browser.newContext({ baseURL });
    await presetConsent(admin, baseURL, false);
    const adminPage = await admin.newPage();
    await signInAsOwner(adminPage, owner.email, owner.password);
    await adminPage.goto(`/teams/${alias}/collections/${collectionId}`);
    const table = adminPage.getByRole('table', { name: 'Files of Spring concert' });
    for (const name of [
      'choir-1.png',
      'choir-2.png',
      'choir-3.png',
      'choir-4.png',
      'solo-1.png',
      'solo-2.png',
    ]) {
      await expect(table.getByRole('button', { name, exact: true })).toBeVisible();
    }
    await shot(adminPage, 'owner-files-light', false);
    await admin.close();
  });

  test('after a reload the same file resumes from the server’s offset, another is not uploaded for it', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    test.setTimeout(150_000);
    const { owner, teamId, collectionId } = await apiOwnerWithCollection(
      request,
      'uploads.repick',
      { name: 'Harbour Band' },
      { name: 'Tour' },
    );
    const screen = `/upload/teams/${teamId}/collections/${collectionId}`;

    const { context, page, errors } = await phone(browser, baseURL, {
      serviceWorkers: 'block',
      viewport: PHONE_375,
    });
    const creations: string[] = [];
    const patchOffsets: number[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && UPLOADS.test(req.url())) creations.push(req.url());
      if (req.method() === 'PATCH' && UPLOADS.test(req.url())) {
        patchOffsets.push(Number(req.headers()['upload-offset']));
      }
    });
    await page.goto('/upload/signin');
    await page.getByLabel('E-mail or username').fill(owner.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/upload\/teams\//);
    await page.goto(screen);
    await expect(page.getByRole('heading', { level: 1, name: 'Tour' })).toBeVisible();

    // A photo on its way on a slow link; the tab is reloaded once part of it reached the server.
    const [photo = ''] = photosOnDisk(testInfo.outputPath('tour'), ['tour-1.png'], 31);
    // The same name, another photo (another size and date): a wrong pick.
    const [lookalike = ''] = photosOnDisk(testInfo.outputPath('other'), ['tour-1.png'], 41);
    await throttleUploads(page, 256 * 1024);
    await page.getByLabel('Choose files').setInputFiles(photo);
    const queue = page.getByRole('region', { name: 'Uploads', exact: true });
    await expect(queue.getByText(/^(?:[2-9]\d)%$/)).toBeVisible({ timeout: 30_000 });
    await page.reload();
    const interrupted = page.getByRole('region', { name: 'Interrupted uploads' });
    await expect(interrupted.getByText('tour-1.png')).toBeVisible();
    await expect(interrupted.getByText(/ of 2\.\d MB uploaded$/)).toBeVisible();
    expect(creations).toHaveLength(1);

    // The wrong photo: said so, nothing uploaded, the interrupted upload still waiting.
    await page.getByLabel('Choose the same file again').setInputFiles(lookalike);
    const notUploaded = page.getByRole('list', { name: 'Files not uploaded' });
    await expect(
      notUploaded.getByText('This is not the file that was interrupted: tour-1.png'),
    ).toBeVisible();
    await expect(
      notUploaded.getByText(/^Interrupted: tour-1\.png · 2\.\d MB · changed /),
    ).toBeVisible();
    const chosen = notUploaded.getByText(/^Chosen: tour-1\.png · 2\.\d MB · changed /);
    await expect(chosen).toBeVisible();
    // The two photos differ only in their date: written so that the difference shows.
    const interruptedText = await notUploaded.getByText(/^Interrupted: /).textContent();
    expect((await chosen.textContent())?.replace('Chosen', 'Interrupted')).not.toBe(
      interruptedText,
    );
    await expect(queue.getByText('tour-1.png')).toHaveCount(0);
    expect(creations).toHaveLength(1);
    await shot(page, 'not-the-interrupted-light-375');

    // The same screen in dark and in Italian, from the same stored upload.
    const state = await context.storageState();
    for (const variant of [
      {
        name: 'dark-375',
        options: { colorScheme: 'dark' as const },
        again: 'Choose the same file again',
        title: 'This is not the file that was interrupted: tour-1.png',
      },
      {
        name: 'it-375',
        options: { locale: 'it-IT' },
        again: 'Scegli di nuovo lo stesso file',
        title: 'Questo non è il file interrotto: tour-1.png',
      },
    ]) {
      const other = await phone(browser, baseURL, {
        storageState: state,
        serviceWorkers: 'block',
        viewport: PHONE_375,
        ...variant.options,
      });
      await other.page.goto(screen);
      await other.page.getByLabel(variant.again).setInputFiles(lookalike);
      await expect(other.page.getByText(variant.title)).toBeVisible();
      await shot(other.page, `not-the-interrupted-${variant.name}`);
      const noOverflow = await other.page.evaluate(
        () => document.documentElement.scrollWidth <= window.innerWidth,
      );
      expect(noOverflow).toBe(true);
      await other.context.close();
      expect(other.errors).toEqual([]);
    }
    expect(creations).toHaveLength(1);

    // Not uploaded after all; then the right photo resumes by itself from the server's offset.
    await notUploaded.getByRole('button', { name: 'Don’t upload' }).click();
    await expect(notUploaded).toBeHidden();
    const patchesBefore = patchOffsets.length;
    await throttleUploads(page, 4 * 1024 * 1024);
    await page.getByLabel('Choose the same file again').setInputFiles(photo);
    await expect(queue).toContainText('1 of 1 uploaded', { timeout: 60_000 });
    await expect(interrupted).toBeHidden();
    expect(creations).toHaveLength(1);
    const resumedAt = patchOffsets[patchesBefore] ?? 0;
    expect(resumedAt).toBeGreaterThan(0);
    const mine = page.getByRole('list', { name: 'Your files in Tour' });
    await expect(mine.getByRole('listitem')).toHaveCount(1);
    await context.close();
    expect(errors).toEqual([]);
  });

  test('a social sign-in started in the upload app comes back to it', async ({
    browser,
    baseURL,
  }) => {
    const { context, page, errors } = await phone(browser, baseURL, { serviceWorkers: 'block' });
    await page.goto('/upload');
    await expect(page).toHaveURL(/\/upload\/signin$/);
    // The e2e identity provider signs its one person in without a form.
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/upload$/, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Choose a team' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('IdentityProvider'))).toBe('true');
    await context.close();
    expect(errors).toEqual([]);
  });

  test('installs as an app and starts without a connection', async ({
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    // The manifest and the worker are served as what they are.
    const manifest = await request.get('/manifest.webmanifest');
    expect(manifest.headers()['content-type']).toContain('application/manifest+json');
    expect(await manifest.json()).toMatchObject({
      name: 'Raccolta',
      start_url: '/upload',
      scope: '/',
      display: 'standalone',
    });
    const worker = await request.get('/sw.js');
    expect(worker.headers()['content-type']).toMatch(/javascript/);
    for (const icon of ['/icon-192.png', '/icon-512.png', '/icon-maskable-512.png']) {
      expect((await request.get(icon)).headers()['content-type']).toBe('image/png');
    }
    const html = await (await request.get('/upload')).text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');

    const owner = newAccount('uploads.offline');
    await createVerifiedAccount(request, owner);
    const { context, page, errors } = await phone(browser, baseURL);
    // Every script the page runs comes over the network once: the offline copy takes the
    // browser's cached answers, it does not download them a second time.
    const fromNetwork = new Map<string, number>();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const fromMemory = new Set<string>();
    cdp.on('Network.requestServedFromCache', ({ requestId }) => fromMemory.add(requestId));
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      if (!new URL(response.url).pathname.startsWith('/assets/')) return;
      if (fromMemory.has(requestId) || response.fromDiskCache || response.fromServiceWorker) return;
      fromNetwork.set(response.url, (fromNetwork.get(response.url) ?? 0) + 1);
    });
    await page.goto('/upload/signin');
    await page.getByLabel('E-mail or username').fill(owner.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByRole('heading', { name: 'Choose a team' })).toBeVisible();
    // The worker is in charge and has the app shell.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const cache = await caches.open('raccolta-offline-v1');
          const keys = (await cache.keys()).map((request) => new URL(request.url).pathname);
          const loaded = new Set(
            performance
              .getEntriesByType('resource')
              .map((entry) => new URL(entry.name).pathname)
              .filter((path) => path.startsWith('/assets/')),
          );
          return (
            navigator.serviceWorker.controller !== null &&
            keys.includes('/__shell') &&
            [...loaded].every((path) => keys.includes(path))
          );
        }),
      )
      .toBe(true);
    expect(fromNetwork.size).toBeGreaterThan(10);
    expect([...fromNetwork].filter(([, count]) => count > 1)).toEqual([]);

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByText('You are offline.', { exact: false })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Choose a team' })).toBeVisible();
    await expect(page.getByText('Waiting for the connection to load this.')).toBeVisible();
    await shot(page, 'offline-start-light');
    await context.setOffline(false);
    // Chromium may keep navigator.onLine true in a page started offline; the app then learns
    // of the connection from its next probe of the server, a few seconds later.
    await expect(page.getByText(/None of your teams lets you upload files/)).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByText('You are offline.', { exact: false })).toBeHidden();
    await context.close();
    expect(errors).toEqual([]);
  });
});
