import { fileURLToPath } from 'node:url';
import { test as base, expect } from '../support/servers.js';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { watchConsole } from '../support/browser.js';
import { apiCreateTeam, openTeamMenuItem, sessionToken, signInAsOwner } from '../support/teams.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };
/** Every test fails if its main page logged an error or threw. */
const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors = watchConsole(page);
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`the photo location setting on a phone, ${colorScheme}`, () => {
    test.use({ colorScheme, viewport: PHONE });

    test(`an owner switches it in Team details and it stays (${colorScheme})`, async ({
      page,
      request,
    }) => {
      const owner = newAccount('location');
      await createVerifiedAccount(request, owner);
      await signInAsOwner(page, owner.email, owner.password);
      const token = await sessionToken(page);
      const teamId = await apiCreateTeam(request, token, {
        name: 'Riverside Community Choir',
        description: 'Rehearsal recordings, scores and concert photos',
      });
      await page.goto(`/teams/${teamId}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Riverside Community Choir');

      await openTeamMenuItem(page, 'Details');
      const details = page.getByRole('dialog', { name: 'Team details' });
      const toggle = details.getByRole('switch', {
        name: 'Remove the location from uploaded photos',
      });
      await expect(toggle).not.toBeChecked();
      await toggle.click();
      await expect(toggle).toBeChecked();
      await expect(toggle).toBeEnabled();
      await details.getByText(/Photos uploaded earlier keep theirs/).scrollIntoViewIfNeeded();
      await page.screenshot({
        path: `${SCREENSHOT_DIR}team-location-${colorScheme}.png`,
        animations: 'disabled',
      });
      await details.getByRole('button', { name: 'Close' }).click();

      // Saved on the server: a fresh page shows it on.
      await page.reload();
      await openTeamMenuItem(page, 'Details');
      await expect(
        page
          .getByRole('dialog', { name: 'Team details' })
          .getByRole('switch', { name: 'Remove the location from uploaded photos' }),
      ).toBeChecked();
    });
  });
}
