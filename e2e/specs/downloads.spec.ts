import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { watchConsole } from '../support/browser.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng, noisePng } from '../support/images.js';
import { linkIn, waitForMail } from '../support/mailbox.js';
import { apiCreateTeam, sessionToken, signInAsOwner, submitSignIn } from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENSHOT_DIR}downloads-${name}.png`,
    fullPage: true,
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test.describe('collection downloads', () => {
  test('request in the browser, the e-mail, its link: the zip arrives and unzips to the collection', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('archivist');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Archivio' });
    const collectionId = await apiCreateCollection(request, token, teamId, { name: 'Gita 2025' });
    const files = [
      { name: 'sea.png', mimeType: 'image/png', buffer: gradientPng(320, 200, [20, 90, 200]) },
      { name: 'forest.png', mimeType: 'image/png', buffer: noisePng(300, 300, 7) },
      {
        name: 'notes.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Bring water.\n'.repeat(200)),
      },
    ];
    for (const file of files) await apiUploadFile(request, token, teamId, collectionId, file);

    // The collection's row menu: Download.
    await page.goto(`/teams/${teamId}`);
    await page.getByRole('button', { name: 'Actions for Gita 2025' }).click();
    await page.getByRole('menuitem', { name: 'Download' }).click();
    await expect(
      page.getByText('Preparing the download of “Gita 2025”', { exact: false }),
    ).toBeVisible();
    await shot(page, 'preparing');
    // Polled every 5 s: the ready toast offers the download at once.
    await expect(page.getByRole('button', { name: 'Download now' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText('The download of “Gita 2025” is ready.')).toBeVisible();
    await shot(page, 'ready-toast');

    // The e-mail's link opens the download page, which starts the download by itself.
    const mail = await waitForMail(owner.email, /Gita 2025/);
    const link = linkIn(mail, `/teams/${teamId}/downloads/`);
    const started = page.waitForEvent('download');
    await page.goto(link);
    const download = await started;
    expect(download.suggestedFilename()).toMatch(/^\d{8}-\d{6} Gita 2025\.zip$/);
    await expect(page.getByText(/The download has started/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Download again' })).toBeVisible();
    await shot(page, 'page');

    const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-e2e-zip-'));
    try {
      const archive = path.join(dir, 'archive.zip');
      await download.saveAs(archive);
      execFileSync('unzip', ['-t', '-qq', archive]);
      execFileSync('unzip', ['-q', archive, '-d', path.join(dir, 'out')]);
      const folder = path.join(dir, 'out', 'Gita 2025');
      expect(readdirSync(folder).sort()).toEqual(files.map((f) => f.name).sort());
      for (const file of files)
        expect(sha256(readFileSync(path.join(folder, file.name))), file.name).toBe(
          sha256(file.buffer),
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The same page in Italian, dark, on a phone.
    const context = await browser.newContext({
      baseURL,
      storageState: await page.context().storageState(),
      locale: 'it-IT',
      colorScheme: 'dark',
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      acceptDownloads: true,
    });
    const phone = await context.newPage();
    const phoneErrors = watchConsole(phone);
    const again = phone.waitForEvent('download');
    await phone.goto(link);
    await again;
    await expect(phone.getByRole('button', { name: 'Scarica di nuovo' })).toBeVisible();
    const noOverflow = await phone.evaluate(
      () => document.documentElement.scrollWidth <= window.innerWidth,
    );
    expect(noOverflow).toBe(true);
    // At the end of the page the cookie button floats over the footer, never over its links.
    await phone.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const cookieButton = phone.getByRole('button', { name: 'Cambia la tua scelta sui cookie' });
    await expect(cookieButton).toBeInViewport();
    const fab = await cookieButton.boundingBox();
    for (const name of ['Termini di servizio', 'Informativa sulla privacy']) {
      const link = await phone.getByRole('contentinfo').getByRole('link', { name }).boundingBox();
      expect(fab && link, name).toBeTruthy();
      if (!fab || !link) continue;
      const apart =
        fab.x >= link.x + link.width ||
        link.x >= fab.x + fab.width ||
        fab.y >= link.y + link.height ||
        link.y >= fab.y + fab.height;
      expect(apart, `the cookie button covers ${name}`).toBe(true);
    }
    await shot(phone, 'page-dark-phone-it');
    // The files screen's Download all, on the phone.
    await phone.goto(`/teams/${teamId}/collections/${collectionId}`);
    await expect(phone.getByRole('button', { name: 'Scarica tutto' })).toBeVisible();
    await shot(phone, 'files-dark-phone-it');
    await context.close();
    expect(phoneErrors).toEqual([]);
  });

  test('a collection larger than a part: the toast says ready, the page offers each part', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const owner = newAccount('parts');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Fototeca' });
    const collectionId = await apiCreateCollection(request, token, teamId, { name: 'Mostra' });
    // About 700 kB each: with the e2e's 1 MiB parts, one photo per part.
    const photos = [1, 2, 3].map((seed) => ({
      name: `photo-${seed}.png`,
      mimeType: 'image/png',
      buffer: noisePng(480, 480, seed),
    }));
    for (const photo of photos) await apiUploadFile(request, token, teamId, collectionId, photo);

    await page.goto(`/teams/${teamId}/collections/${collectionId}`);
    await page.getByRole('button', { name: 'Download all' }).click();
    // Followed until every part is stored: then it says ready, like a download in one part.
    await expect(page.getByText('The download of “Mostra” is ready, in 3 parts.')).toBeVisible({
      timeout: 60_000,
    });
    await shot(page, 'parts-ready-toast');
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/teams/${teamId}/downloads/[^/]+/download`));
    await expect(
      page.getByText('All 3 parts are ready: download each one with its button.'),
    ).toBeVisible();
    await shot(page, 'parts');

    const dir = mkdtempSync(path.join(tmpdir(), 'raccolta-e2e-zip-'));
    try {
      const names: string[] = [];
      for (const partId of [1, 2, 3]) {
        const started = page.waitForEvent('download');
        await page.getByRole('button', { name: `Download part ${partId} of 3` }).click();
        const download = await started;
        names.push(download.suggestedFilename());
        const archive = path.join(dir, `part-${partId}.zip`);
        await download.saveAs(archive);
        execFileSync('unzip', ['-t', '-qq', archive]);
        execFileSync('unzip', ['-q', archive, '-d', path.join(dir, 'out')]);
      }
      // One name for the whole download: the moment it was requested, then the part.
      const stamp = /^(\d{8}-\d{6}) Mostra \(part 1 of 3\)\.zip$/.exec(names[0] ?? '')?.[1];
      expect(stamp, names[0]).toBeDefined();
      expect(names).toEqual([1, 2, 3].map((n) => `${stamp} Mostra (part ${n} of 3).zip`));
      const folder = path.join(dir, 'out', 'Mostra');
      expect(readdirSync(folder).sort()).toEqual(photos.map((p) => p.name).sort());
      for (const photo of photos)
        expect(sha256(readFileSync(path.join(folder, photo.name))), photo.name).toBe(
          sha256(photo.buffer),
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // The same page in Italian and dark, on a phone.
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
    const phoneErrors = watchConsole(phone);
    await phone.goto(page.url());
    await expect(
      phone.getByText('Tutte le 3 parti sono pronte: scaricale una per una con il loro pulsante.'),
    ).toBeVisible();
    await expect(phone.getByRole('button', { name: 'Scarica la parte 3 di 3' })).toBeEnabled();
    expect(
      await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await shot(phone, 'parts-dark-phone-it');
    await context.close();
    expect(phoneErrors).toEqual([]);
  });

  test('the e-mail link opened signed out: sign-in names the collection, then the download starts', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('mailed');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Sposi' });
    const collectionId = await apiCreateCollection(request, token, teamId, {
      name: 'Wedding photos',
    });
    const photo = { name: 'rings.png', mimeType: 'image/png', buffer: noisePng(200, 200, 3) };
    await apiUploadFile(request, token, teamId, collectionId, photo);
    const requested = await request.post(`/api/teams/${teamId}/downloads`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { collectionId },
    });
    expect(requested.status()).toBe(202);
    const mail = await waitForMail(owner.email, /Wedding photos/, 60_000);
    const link = linkIn(mail, `/teams/${teamId}/downloads/`);

    // A browser that never signed in: the sign-in page says what the link leads to.
    for (const look of [
      {
        colorScheme: 'light' as const,
        locale: 'en-GB',
        text: 'Sign in to download “Wedding photos”.',
      },
      {
        colorScheme: 'dark' as const,
        locale: 'en-GB',
        text: 'Sign in to download “Wedding photos”.',
      },
      {
        colorScheme: 'dark' as const,
        locale: 'it-IT',
        text: 'Accedi per scaricare «Wedding photos».',
      },
    ]) {
      const context = await browser.newContext({
        baseURL,
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
        colorScheme: look.colorScheme,
        locale: look.locale,
      });
      const phone = await context.newPage();
      await phone.goto(link);
      await expect(phone).toHaveURL(/\/auth\/signin$/);
      await expect(phone.getByText(look.text)).toBeVisible();
      await shot(phone, `signin-link-${look.colorScheme}-phone-${look.locale.slice(0, 2)}`);
      await context.close();
    }

    const context = await browser.newContext({ baseURL, acceptDownloads: true });
    const fresh = await context.newPage();
    const errors = watchConsole(fresh);
    await fresh.goto(link);
    await expect(fresh.getByText('Sign in to download “Wedding photos”.')).toBeVisible();
    const started = fresh.waitForEvent('download');
    await submitSignIn(fresh, owner.email, owner.password);
    await expect(fresh).toHaveURL(new RegExp(`/teams/${teamId}/downloads/[^/]+/download`));
    const download = await started;
    expect(download.suggestedFilename()).toMatch(/Wedding photos\.zip$/);
    await expect(fresh.getByRole('button', { name: 'Download again' })).toBeVisible();
    await context.close();
    expect(errors).toEqual([]);
  });
});
