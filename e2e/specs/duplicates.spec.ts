import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { watchConsole } from '../support/browser.js';
import { presetConsent } from '../support/consent.js';
import { apiUploadFile } from '../support/collections.js';
import { noisePng } from '../support/images.js';
import { signInAsOwner } from '../support/teams.js';
import { apiOwnerWithCollection } from '../support/owner.js';
import { expect, test } from '../support/servers.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };
const UPLOADS = /\/api\/teams\/[^/]+\/collections\/[^/]+\/uploads$/;

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: `${SCREENSHOT_DIR}duplicates-${name}.png`,
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

const metadataOf = (header: string | undefined) =>
  Object.fromEntries(
    (header ?? '').split(',').map((pair) => {
      const [key = '', value = ''] = pair.trim().split(' ');
      return [key, Buffer.from(value, 'base64').toString()];
    }),
  );

test.describe('duplicates caught before upload', () => {
  test('the upload app skips a photo the collection holds, and uploads it anyway when asked', async ({
    browser,
    request,
    baseURL,
  }, testInfo) => {
    test.setTimeout(120_000);
    const { owner, token, teamId, collectionId } = await apiOwnerWithCollection(
      request,
      'dupes.owner',
      { name: 'Lakeside Rowing' },
      { name: 'Regatta' },
    );
    const photo = noisePng(300, 300, 71);
    await apiUploadFile(request, token, teamId, collectionId, {
      name: 'start-line.png',
      mimeType: 'image/png',
      buffer: photo,
    });
    const same = onDisk(testInfo.outputPath('same'), 'start-line-copy.png', photo);
    const fresh = onDisk(testInfo.outputPath('fresh'), 'finish.png', noisePng(300, 300, 72));

    const context = await browser.newContext({
      baseURL,
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'dark',
      serviceWorkers: 'block',
    });
    await presetConsent(context, baseURL, false);
    const page = await context.newPage();
    const errors = watchConsole(page);
    const creations: Record<string, string>[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && UPLOADS.test(req.url()))
        creations.push(metadataOf(req.headers()['upload-metadata']));
    });

    await page.goto('/upload/signin');
    await page.getByLabel('E-mail or username').fill(owner.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/upload\/teams\//);
    await page.goto(`/upload/teams/${teamId}/collections/${collectionId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Regatta' })).toBeVisible();

    await page.getByLabel('Choose files').setInputFiles([same, fresh]);
    const queue = page.getByRole('region', { name: 'Uploads', exact: true });
    const rowOf = (name: string) => queue.getByRole('listitem').filter({ hasText: name });
    await expect(rowOf('start-line-copy.png').getByText('Already in this collection')).toBeVisible({
      timeout: 30_000,
    });
    await expect(rowOf('finish.png').getByText('Uploaded')).toBeVisible({ timeout: 30_000 });
    await expect(queue.getByText('1 of 2 uploaded · 1 already in the collection')).toBeVisible();
    // Only the new photo went up, with the digest the browser computed.
    expect(creations).toHaveLength(1);
    expect(creations[0]?.filename).toBe('finish.png');
    expect(creations[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    await shot(page, 'upload-app-phone-dark');

    await queue.getByRole('button', { name: 'Upload start-line-copy.png anyway' }).click();
    await expect(rowOf('start-line-copy.png').getByText('Uploaded')).toBeVisible({
      timeout: 30_000,
    });
    expect(creations).toHaveLength(2);
    expect(creations[1]?.filename).toBe('start-line-copy.png');
    const list = await request.get(`/api/teams/${teamId}/collections/${collectionId}/files`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const names = ((await list.json()) as { files: { name: string }[] }).files.map((f) => f.name);
    expect(names.sort()).toEqual(['finish.png', 'start-line-copy.png', 'start-line.png']);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const look of [
    {
      suffix: 'desktop-light',
      colorScheme: 'light' as const,
      viewport: { width: 1280, height: 800 },
    },
    { suffix: 'phone-dark', colorScheme: 'dark' as const, viewport: PHONE },
  ]) {
    test(`the files screen lists duplicates and deletes the extras, keeping the oldest (${look.suffix})`, async ({
      browser,
      request,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const { owner, token, teamId, collectionId } = await apiOwnerWithCollection(
        request,
        'dupes.view',
        { name: 'Hillside Scouts' },
        { name: 'Camp' },
      );
      const tent = noisePng(120, 90, 81);
      const upload = (name: string, buffer: Buffer) =>
        apiUploadFile(request, token, teamId, collectionId, {
          name,
          mimeType: 'image/png',
          buffer,
        });
      await upload('tent.png', tent);
      await upload('tent-again.png', tent);
      await upload('tent-third.png', tent);
      await upload('campfire.png', noisePng(120, 90, 82));

      const context = await browser.newContext({
        baseURL,
        viewport: look.viewport,
        colorScheme: look.colorScheme,
      });
      await presetConsent(context, baseURL, false);
      const page = await context.newPage();
      const errors = watchConsole(page);
      await signInAsOwner(page, owner.email, owner.password);
      await page.goto(`/teams/${teamId}/collections/${collectionId}`);
      await expect(page.getByRole('heading', { level: 1, name: 'Camp' })).toBeVisible();
      await page.getByRole('button', { name: 'Duplicates' }).click();
      const dialog = page.getByRole('dialog', { name: 'Duplicates in this collection' });
      await expect(dialog.getByText('Group 1 · 3 copies')).toBeVisible();
      await expect(dialog.getByText('campfire.png')).toHaveCount(0);
      // The oldest first, kept; the two later copies are the extras.
      await expect(dialog.getByText(/^Kept \(oldest\) · /)).toHaveCount(1);
      await expect(dialog.getByText(/^Extra · /)).toHaveCount(2);
      await expect(dialog.getByRole('listitem').filter({ hasText: /^tent\.pngKept/ })).toHaveCount(
        1,
      );
      await page.screenshot({
        path: `${SCREENSHOT_DIR}duplicates-files-${look.suffix}.png`,
        fullPage: true,
        animations: 'disabled',
      });
      await dialog.getByRole('button', { name: 'Delete the extras' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete 2 extra files?' });
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByText('2 extra files deleted')).toBeVisible();
      await expect(dialog.getByText('No duplicates: every file here is different.')).toBeVisible();
      const list = await request.get(`/api/teams/${teamId}/collections/${collectionId}/files`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const names = ((await list.json()) as { files: { name: string }[] }).files.map((f) => f.name);
      expect(names.sort()).toEqual(['campfire.png', 'tent.png']);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
