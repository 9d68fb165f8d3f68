import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { presetConsent } from '../support/consent.js';
import { noisePng } from '../support/images.js';
import { apiAddAlias, apiAddInternal, signInAsOwner, uniqueSuffix } from '../support/teams.js';
import { apiOwnerWithTeam } from '../support/owner.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: `${SCREENSHOT_DIR}contributors-reach-${name}.png`,
    fullPage: true,
    animations: 'disabled',
  });
}

/** The contributor's phone, signed in to the upload app with the team code (first password set). */
async function contributorPhone(
  browser: Browser,
  baseURL: string | undefined,
  login: { username: string; password: string; teamCode: string },
) {
  const context = await browser.newContext({
    baseURL,
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
  });
  await presetConsent(context, baseURL, false);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // The first sign-in answers 403 newPasswordRequired on purpose, and the collection made
    // private at the end answers 404 to what the phone still asks of it.
    if (message.type() === 'error' && !/status of (403|404)/.test(message.text())) {
      errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/upload');
  await expect(page).toHaveURL(/\/upload\/signin$/);
  await page.getByLabel('E-mail or username').fill(login.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(login.password);
  await page.getByLabel('Team code').fill(login.teamCode);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('New password').fill('Contrib-pass-9');
  await page.getByLabel('Confirm password').fill('Contrib-pass-9');
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/upload/teams/${login.teamCode}$`));
  return { context, page, errors };
}

/*
 * The purpose of the product on its defaults: a collection an owner creates without touching its
 * options is one the team's contributors see and upload into, in a controlled team and in a
 * collaborative one; the owner can make it private afterwards, and the list says which is which.
 */
test.describe('contributors reach the collection made for them', () => {
  for (const mode of ['controlled', 'collaborative'] as const) {
    test(`in a ${mode} team, with the New collection defaults`, async ({
      page,
      browser,
      request,
      baseURL,
    }, testInfo) => {
      test.setTimeout(120_000);
      const { owner, token, teamId } = await apiOwnerWithTeam(request, `reach.${mode}`, {
        name: 'Building site',
        mode,
      });
      const alias = `site-${uniqueSuffix()}`;
      await apiAddAlias(request, token, teamId, alias);
      const password = await apiAddInternal(request, token, teamId, 'mario.rossi');

      // The owner creates "Site photos" and changes nothing but the name.
      await signInAsOwner(page, owner.email, owner.password);
      await page.goto(`/teams/${alias}`);
      await page.getByRole('button', { name: 'New collection' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New collection' });
      await dialog.getByLabel('Collection name').fill('Site photos');
      await expect(
        dialog.getByRole('radio', { name: 'Contributors can see and upload' }),
      ).toBeChecked();
      if (mode === 'controlled') await shot(page, 'create-dialog');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await expect(dialog).toBeHidden();
      const list = page.getByRole('list', { name: 'Collections' });
      const row = list.getByRole('listitem').filter({ hasText: 'Site photos' });
      await expect(row.getByText('Shared', { exact: true })).toBeVisible();

      // The contributor finds it in the upload app and uploads into it.
      const phone = await contributorPhone(browser, baseURL, {
        username: 'mario.rossi',
        password,
        teamCode: alias,
      });
      const collections = phone.page.getByRole('list', { name: 'Collections' });
      await expect(collections.getByRole('link', { name: /Site photos/ })).toBeVisible();
      await expect(
        phone.page.getByText('There is no collection you can upload to yet', { exact: false }),
      ).toBeHidden();
      // Only a collaborative team lets contributors create collections of their own.
      await expect(phone.page.getByRole('button', { name: 'New collection' })).toHaveCount(
        mode === 'collaborative' ? 1 : 0,
      );
      await shot(phone.page, `upload-list-${mode}`);
      await collections.getByRole('link', { name: /Site photos/ }).click();
      await expect(
        phone.page.getByRole('heading', { level: 1, name: 'Site photos' }),
      ).toBeVisible();
      const photo = testInfo.outputPath('wall.png');
      writeFileSync(photo, noisePng(64, 64, 7));
      await phone.page.getByLabel('Choose files').setInputFiles(photo);
      await expect(phone.page.getByRole('region', { name: 'Uploads' })).toContainText(
        '1 of 1 uploaded',
        { timeout: 30_000 },
      );
      await expect(
        phone.page.getByRole('list', { name: 'Your files in Site photos' }).getByRole('listitem'),
      ).toHaveCount(1);

      // The owner makes it private afterwards: the list says so, and the contributor no longer
      // sees it.
      await page.reload();
      await row.getByRole('button', { name: 'Actions for Site photos' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit the collection' });
      await edit.getByRole('radio', { name: 'Only me and the team’s managers' }).check();
      await edit.getByRole('button', { name: 'Save' }).click();
      await expect(edit).toBeHidden();
      await expect(row.getByText('Private', { exact: true })).toBeVisible();
      await expect(row.getByText('Shared', { exact: true })).toHaveCount(0);
      if (mode === 'controlled') {
        await shot(page, 'list-private');
        // The same choice in Italian, dark, on a phone.
        const it = await browser.newContext({
          baseURL,
          viewport: PHONE,
          locale: 'it-IT',
          colorScheme: 'dark',
          storageState: await page.context().storageState(),
        });
        const itPage = await it.newPage();
        await itPage.goto(`/teams/${alias}`);
        const itRow = itPage.getByRole('listitem').filter({ hasText: 'Site photos' });
        await expect(itRow.getByText('Privata', { exact: true })).toBeVisible();
        await itPage.getByRole('button', { name: 'Nuova raccolta' }).first().click();
        await expect(
          itPage.getByRole('radio', { name: 'I collaboratori possono vederla e caricare file' }),
        ).toBeChecked();
        await shot(itPage, 'create-dialog-it-dark-375');
        await it.close();
      }
      await phone.page.goto(`/upload/teams/${alias}`);
      await expect(
        phone.page.getByText('There is no collection you can upload to yet', { exact: false }),
      ).toBeVisible();
      expect(phone.errors).toEqual([]);
      await phone.context.close();
    });
  }
});
