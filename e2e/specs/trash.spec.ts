import { fileURLToPath } from 'node:url';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import { expect, test } from '../support/test.js';
import { apiCreateTeam, openTeamMenuItem, sessionToken, signInAsOwner } from '../support/teams.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`the trash on a phone, ${colorScheme}`, () => {
    test.use({ colorScheme, viewport: PHONE });

    test(`an owner restores a deleted collection and empties the rest (${colorScheme})`, async ({
      page,
      request,
    }) => {
      const owner = newAccount('trash');
      await createVerifiedAccount(request, owner);
      await signInAsOwner(page, owner.email, owner.password);
      const token = await sessionToken(page);
      const headers = { Authorization: `Bearer ${token}` };
      const teamId = await apiCreateTeam(request, token, { name: 'Riverside Community Choir' });
      const concert = await apiCreateCollection(request, token, teamId, {
        name: 'Spring concert photos',
      });
      const rehearsals = await apiCreateCollection(request, token, teamId, {
        name: 'Rehearsal recordings',
      });
      const png = (name: string, seed: number) => ({
        name,
        mimeType: 'image/png',
        buffer: gradientPng(64, 48, [seed, 120, 200]),
      });
      const stray = await apiUploadFile(request, token, teamId, rehearsals, png('warm-up.png', 10));
      await apiUploadFile(request, token, teamId, rehearsals, png('tenors.png', 20));
      await apiUploadFile(request, token, teamId, concert, png('stage.png', 30));
      await apiUploadFile(request, token, teamId, concert, png('audience.png', 40));
      expect(
        (
          await request.delete(`/api/teams/${teamId}/collections/${rehearsals}/files/${stray}`, {
            headers,
          })
        ).status(),
      ).toBe(204);
      expect(
        (await request.delete(`/api/teams/${teamId}/collections/${concert}`, { headers })).status(),
      ).toBe(204);

      await page.goto(`/teams/${teamId}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Riverside Community Choir');
      await expect(page.getByText('Spring concert photos')).toHaveCount(0);
      await openTeamMenuItem(page, 'Trash');
      await expect(page.getByRole('heading', { level: 1, name: 'Trash' })).toBeVisible();
      await expect(page.getByText('2 items · ')).toBeVisible();
      await expect(page.getByText('Collection · 2 files · ')).toBeVisible();
      await expect(page.getByText('From “Rehearsal recordings” · ')).toBeVisible();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}trash-${colorScheme}.png`,
        animations: 'disabled',
        fullPage: true,
      });

      await page.getByRole('button', { name: 'Restore “Spring concert photos”' }).click();
      await expect(page.getByText('Restored 2 files and 1 collection.')).toBeVisible();
      await expect(page.getByText('Spring concert photos')).toHaveCount(0);

      await page.getByRole('button', { name: 'Empty trash' }).click();
      const dialog = page.getByRole('dialog', { name: 'Empty the trash?' });
      await dialog.getByRole('button', { name: 'Delete for good' }).click();
      await expect(page.getByText('The trash is empty.')).toBeVisible();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}trash-empty-${colorScheme}.png`,
        animations: 'disabled',
      });

      // Back in the team, with its files.
      await page.getByRole('link', { name: 'Back to Riverside Community Choir' }).click();
      await page.getByText('Spring concert photos').click();
      await expect(page.getByText('stage.png')).toBeVisible();
      await expect(page.getByText('audience.png')).toBeVisible();
    });
  });
}
