import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import { expect, test } from '../support/test.js';
import { apiCreateTeam, sessionToken, signInAsOwner } from '../support/teams.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PHONE = { width: 375, height: 740 };

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`a damaged file on a phone, ${colorScheme}`, () => {
    test.use({ colorScheme, viewport: PHONE });

    test(`the integrity check marks it and its download warns (${colorScheme})`, async ({
      page,
      request,
      e2eServers,
    }) => {
      const owner = newAccount('damaged');
      await createVerifiedAccount(request, owner);
      await signInAsOwner(page, owner.email, owner.password);
      const token = await sessionToken(page);
      const teamId = await apiCreateTeam(request, token, { name: 'Riverside Community Choir' });
      const collectionId = await apiCreateCollection(request, token, teamId, {
        name: 'Spring concert photos',
      });
      const png = (name: string, seed: number) => ({
        name,
        mimeType: 'image/png',
        buffer: gradientPng(64, 48, [seed, 90, 160]),
      });
      const broken = await apiUploadFile(request, token, teamId, collectionId, png('stage.png', 1));
      await apiUploadFile(request, token, teamId, collectionId, png('audience.png', 2));

      // Its thumbnail made first, so only the original is touched.
      await expect
        .poll(
          async () =>
            (
              (await (
                await request.get(
                  `/api/teams/${teamId}/collections/${collectionId}/files/${broken}`,
                  {
                    headers: { Authorization: `Bearer ${token}` },
                  },
                )
              ).json()) as { renditionStatus: string }
            ).renditionStatus,
          { timeout: 20_000 },
        )
        .toBe('ready');

      // A flipped byte on the disk, behind Raccolta's back; then the operator's check.
      const dataDir = e2eServers.dataDir;
      const stored = path.join(
        dataDir,
        'files',
        'teams',
        teamId,
        'collections',
        collectionId,
        broken,
        'original',
      );
      const bytes = readFileSync(stored);
      bytes[bytes.length - 20] = (bytes[bytes.length - 20] ?? 0) ^ 0xff;
      writeFileSync(stored, bytes);
      const check = spawnSync(
        process.execPath,
        ['scripts/start.mjs', '--admin', 'verify-storage'],
        {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
          encoding: 'utf8',
        },
      );
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toMatch(/damaged/);
      expect(check.stdout).toContain(stored.slice(path.join(dataDir, 'files').length + 1));

      await page.goto(`/teams/${teamId}/collections/${collectionId}`);
      const row = page.getByRole('row').filter({ hasText: 'stage.png' });
      await expect(row.getByText('Damaged')).toBeVisible();
      await expect(
        page.getByRole('row').filter({ hasText: 'audience.png' }).getByText('Damaged'),
      ).toHaveCount(0);
      await page.screenshot({
        path: `${SCREENSHOT_DIR}damaged-file-${colorScheme}.png`,
        animations: 'disabled',
      });

      await row.getByRole('button', { name: 'Actions for stage.png' }).click();
      await page.getByRole('menuitem', { name: 'Download' }).click();
      const dialog = page.getByRole('dialog', { name: 'Download a damaged file?' });
      await expect(dialog).toContainText('no longer matches what was uploaded');
      await page.screenshot({
        path: `${SCREENSHOT_DIR}damaged-download-${colorScheme}.png`,
        animations: 'disabled',
      });
      const download = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download anyway' }).click();
      expect((await download).suggestedFilename()).toBe('stage.png');
    });
  });
}
