import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { watchConsole } from '../support/browser.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import { apiCreateTeam, apiInvite, sessionToken, signInAsOwner } from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

/** axe-core's colour-contrast rule (WCAG AA: 4.5:1, 3:1 for large text) on what is shown. */
async function expectReadable(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withRules(['color-contrast']).analyze();
  const found = violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
  );
  expect(found, what).toEqual([]);
}

test.describe('colour contrast', () => {
  test('every text reaches WCAG AA in light and dark: teams, collections, files, dialogs, downloads', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('contrast');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Contrasti' });
    await apiInvite(request, token, teamId, {
      email: newAccount('invitee').email,
      nickname: 'Invitata',
      role: 'viewer',
    });
    const collectionId = await apiCreateCollection(request, token, teamId, { name: 'Colori' });
    await apiUploadFile(request, token, teamId, collectionId, {
      name: 'sky.png',
      mimeType: 'image/png',
      buffer: gradientPng(200, 120, [30, 110, 220]),
    });
    const download = await request.post(`/api/teams/${teamId}/downloads`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { collectionId },
    });
    expect(download.status()).toBe(202);
    const { requestId } = (await download.json()) as { requestId: string };

    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({
        baseURL,
        storageState: await page.context().storageState(),
        colorScheme,
        acceptDownloads: true,
      });
      const view = await context.newPage();
      const errors = watchConsole(view);

      await view.goto(`/teams/${teamId}`);
      await expect(view.getByRole('link', { name: 'Colori', exact: true })).toBeVisible();
      await expect(view.getByText('Invitata')).toBeVisible();
      await expectReadable(view, `${colorScheme}: team dashboard`);
      await view.screenshot({ path: `${SCREENSHOT_DIR}contrast-dashboard-${colorScheme}.png` });

      await view.getByRole('button', { name: 'New collection' }).first().click();
      await expect(view.getByRole('dialog')).toBeVisible();
      await expectReadable(view, `${colorScheme}: create collection dialog`);
      await view.getByRole('button', { name: 'Cancel' }).click();

      await view.goto(`/teams/${teamId}/collections/${collectionId}`);
      await expect(
        view.getByRole('button', { name: 'sky.png', exact: true }).first(),
      ).toBeVisible();
      await expectReadable(view, `${colorScheme}: files`);

      const started = view.waitForEvent('download');
      await view.goto(`/teams/${teamId}/downloads/${requestId}/download`);
      await started;
      await expect(view.getByRole('button', { name: 'Download again' })).toBeVisible();
      await expectReadable(view, `${colorScheme}: download page`);

      await view.goto('/profile');
      await expect(view.getByRole('button', { name: /Save/ })).toBeVisible();
      await expectReadable(view, `${colorScheme}: profile`);
      await context.close();
      expect(errors).toEqual([]);
    }
  });
});
