import { fileURLToPath } from 'node:url';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { expect, test } from '../support/test.js';
import { apiCreateTeam, openTeamMenuItem, sessionToken, signInAsOwner } from '../support/teams.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));

const LAYOUTS = [
  { name: 'phone-dark', colorScheme: 'dark', viewport: { width: 375, height: 740 } },
  { name: 'desktop-light', colorScheme: 'light', viewport: { width: 1280, height: 800 } },
] as const;

for (const layout of LAYOUTS) {
  test.describe(`e-mail digest, ${layout.name}`, () => {
    test.use({ colorScheme: layout.colorScheme, viewport: layout.viewport });

    test(`an owner changes their digest from the team menu (${layout.name})`, async ({
      page,
      request,
    }) => {
      const owner = newAccount('digest');
      await createVerifiedAccount(request, owner);
      await signInAsOwner(page, owner.email, owner.password);
      const token = await sessionToken(page);
      const teamId = await apiCreateTeam(request, token, { name: 'Riverside Community Choir' });

      await page.goto(`/teams/${teamId}`);
      await openTeamMenuItem(page, 'E-mail digest');
      const dialog = page.getByRole('dialog', { name: 'E-mail digest' });
      await expect(dialog.getByRole('radio', { name: 'Daily' })).toBeChecked();
      await dialog.getByRole('radio', { name: /As they arrive/ }).check();
      await expect(dialog.getByRole('radio', { name: /As they arrive/ })).toBeChecked();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}digest-setting-${layout.name}.png`,
        animations: 'disabled',
      });
      await dialog.getByRole('button', { name: 'Close' }).click();

      const res = await request.get(`/api/teams/${teamId}/members/@me/digest`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(await res.json()).toEqual({ frequency: 'instant', isDefault: false, available: true });

      // A broken unsubscribe link says so, without calling the API.
      await page.goto('/digests/unsubscribe?team=t&user=u');
      await expect(page.getByText('This unsubscribe link is not valid.')).toBeVisible();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}digest-unsubscribe-invalid-${layout.name}.png`,
        animations: 'disabled',
      });
    });
  });
}
