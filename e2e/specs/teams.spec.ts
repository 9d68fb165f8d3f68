import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { test as base, expect } from '../support/servers.js';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { otherBrowser, watchConsole } from '../support/browser.js';
import {
  apiAddAlias,
  apiAddInternal,
  apiCreateTeam,
  apiInvite,
  invitationLink,
  memberAction,
  memberRow,
  openTeamMenuItem,
  sessionToken,
  signInAsOwner,
  submitSignIn,
  uniqueSuffix,
} from '../support/teams.js';

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

test.describe('teams, members and invitations', () => {
  test('create, rename, alias; invite and accept; roles and status; internal contributor; reject', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('owner');
    await createVerifiedAccount(request, owner);
    const alias = `choir-${uniqueSuffix()}`;

    // A new user with the global scope is offered the first team.
    await signInAsOwner(page, owner.email, owner.password);
    await expect(page.getByRole('heading', { name: 'Create your first team' })).toBeVisible();
    await page.getByRole('button', { name: 'Create a team' }).click();
    const create = page.getByRole('dialog', { name: 'Create a team' });
    await create.getByLabel('Team name').fill('Choir');
    await create.getByLabel('Description').fill('Sopranos and altos');
    await create.getByLabel('Your name in the team').fill('Maestra');
    await expect(create.getByLabel('Contributors can create collections')).toBeChecked();
    await create.getByRole('button', { name: 'Create' }).click();

    // It opens.
    await expect(page).toHaveURL(/\/teams\/[0-9a-f-]{36}$/);
    const teamId = page.url().split('/').at(-1) ?? '';
    await expect(page.getByRole('heading', { level: 1, name: 'Choir' })).toBeVisible();
    await expect(page).toHaveTitle('Choir · Raccolta');
    const panel = page.getByRole('complementary', { name: 'Members' });
    await expect(memberRow(panel, 'Maestra (you)')).toContainText('Owner');

    await openTeamMenuItem(page, 'Rename');
    const rename = page.getByRole('dialog', { name: 'Rename the team' });
    await expect(rename.getByRole('button', { name: 'Save' })).toBeDisabled();
    await rename.getByLabel('Team name').fill('Chamber choir');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Chamber choir' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Team menu: Chamber choir' })).toBeVisible();

    await openTeamMenuItem(page, 'Add alias');
    const aliasDialog = page.getByRole('dialog', { name: 'Add an alias' });
    await aliasDialog.getByLabel('Alias').fill(`-${alias}`);
    await aliasDialog.getByRole('button', { name: 'Continue' }).click();
    await expect(aliasDialog.getByText(/cannot start or end with an hyphen/)).toBeVisible();
    await aliasDialog.getByLabel('Alias').fill(alias.toUpperCase());
    await aliasDialog.getByRole('button', { name: 'Continue' }).click();
    await expect(aliasDialog.getByText(alias, { exact: true })).toBeVisible();
    await expect(aliasDialog.getByText('Once assigned it cannot be changed.')).toBeVisible();
    await aliasDialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText(`The alias “${alias}” has been added.`)).toBeVisible();

    await page.goto(`/teams/${alias}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Chamber choir' })).toBeVisible();
    await openTeamMenuItem(page, 'Details');
    const details = page.getByRole('dialog', { name: 'Team details' });
    await expect(details.getByText('Sopranos and altos')).toBeVisible();
    await expect(details.getByText('Collaborative', { exact: true })).toBeVisible();
    await details.getByRole('button', { name: 'Close' }).click();

    // Invite by e-mail; the invitee has no account yet.
    const invitee = newAccount('invitee');
    await panel.getByRole('button', { name: 'Add member' }).click();
    const add = page.getByRole('dialog', { name: 'Add a member' });
    await add.getByRole('textbox', { name: 'E-mail' }).fill(invitee.email);
    await add.getByLabel('Name in the team').fill('Bea');
    await expect(add.getByRole('combobox', { name: 'Role' })).toHaveText('Contributor');
    await add.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${invitee.email}.`)).toBeVisible();
    await expect(memberRow(panel, 'Bea')).toContainText('Invited');

    // The invitee opens the mailed link in a browser of their own.
    const second = await otherBrowser(browser, baseURL, {}, [409, 403]);
    await second.page.goto(await invitationLink(invitee.email, teamId, 'accept'));
    await expect(second.page.getByText('Maestra invited you to join Chamber choir.')).toBeVisible();
    await expect(second.page.getByLabel('E-mail')).toHaveValue(invitee.email);
    await second.page
      .getByRole('textbox', { name: 'Password', exact: true })
      .fill(invitee.password);
    await second.page.getByLabel('Confirm password').fill(invitee.password);
    await second.page.getByRole('button', { name: 'Create account and join' }).click();
    await expect(
      second.page.getByText('You have joined Chamber choir as Contributor.'),
    ).toBeVisible();
    await expect(second.page.getByRole('link', { name: 'Open the upload app' })).toBeVisible();
    await second.page.getByRole('link', { name: 'Go to the team' }).click();
    await expect(
      second.page.getByRole('heading', { level: 1, name: 'Chamber choir' }),
    ).toBeVisible();

    // Signed in as Bea, a link for someone else offers to sign out and continue as them.
    const other = newAccount('other');
    await apiInvite(request, await sessionToken(page), teamId, {
      email: other.email,
      nickname: 'Olmo',
      role: 'viewer',
    });
    await second.page.goto(await invitationLink(other.email, teamId, 'accept'));
    await second.page
      .getByRole('button', { name: `Sign out and continue as ${other.email}` })
      .click();
    await expect(second.page.getByLabel('E-mail')).toHaveValue(other.email);
    await expect(second.page).toHaveURL(/\/invitations\/accept\?key=/);
    await second.close();

    // Back with the owner: role, disable, reactivate.
    await page.reload();
    await expect(memberRow(panel, 'Bea')).toContainText('Active');
    await memberAction(panel, 'Bea', 'Change role');
    const roleDialog = page.getByRole('dialog', { name: 'Change the role of Bea' });
    await roleDialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Viewer' }).click();
    await roleDialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Bea is now Viewer.')).toBeVisible();
    await expect(memberRow(panel, 'Bea')).toContainText('Viewer');

    await memberAction(panel, 'Bea', 'Disable');
    await page
      .getByRole('dialog', { name: 'Disable Bea?' })
      .getByRole('button', { name: 'Disable' })
      .click();
    await expect(memberRow(panel, 'Bea')).toContainText('Disabled');
    await memberAction(panel, 'Bea', 'Reactivate');
    await expect(memberRow(panel, 'Bea')).toContainText('Active');

    // An internal contributor: credentials shown once.
    await panel.getByRole('button', { name: 'Add member' }).click();
    await add.getByRole('tab', { name: 'Internal contributor' }).click();
    await expect(add.getByRole('combobox', { name: 'Role' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await add.getByLabel('Username').fill('carlo.rossi');
    await add.getByRole('button', { name: 'Create account' }).click();
    const credentials = page.getByRole('dialog', { name: 'Sign-in details' });
    // The team's short code (no 0/O/1/I/L), not its alias or id; the alias keeps working.
    await expect(credentials.getByLabel('Team code', { exact: true })).toHaveValue(
      /^[2-9A-HJKMNP-Z]{7}$/,
    );
    await expect(credentials.getByLabel('Username', { exact: true })).toHaveValue('carlo.rossi');
    const password = await credentials.getByLabel('Password', { exact: true }).inputValue();
    expect(password.length).toBeGreaterThanOrEqual(8);
    await credentials.getByRole('button', { name: 'Done' }).click();
    await expect(memberRow(panel, 'carlo.rossi')).toContainText('Contributor');

    // The contributor signs in with the username and the team code, then sets a password.
    // A link with a wrong team code: the code is shown, refused as such, and corrected.
    const third = await otherBrowser(browser, baseURL, {}, [403, 404]);
    await third.page.goto(`/auth/signin?team=${alias}-typo`);
    await submitSignIn(third.page, 'carlo.rossi', password);
    await expect(third.page.getByText('No team has this code.')).toBeVisible();
    await third.page.getByLabel('Team code').fill(alias);
    await third.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(third.page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    await third.page.getByLabel('New password').fill('Contrib-pass-9');
    await third.page.getByLabel('Confirm password').fill('Contrib-pass-9');
    await third.page.getByRole('button', { name: 'Save and sign in' }).click();
    await expect(third.page).toHaveURL(new RegExp(`/teams/${alias}$`));
    await expect(
      third.page.getByRole('heading', { level: 1, name: 'Chamber choir' }),
    ).toBeVisible();
    await third.close();

    // A second invitation, declined from its link.
    const declined = newAccount('declined');
    await apiInvite(request, await sessionToken(page), teamId, {
      email: declined.email,
      nickname: 'Dario',
      role: 'viewer',
    });
    const fourth = await otherBrowser(browser, baseURL);
    await fourth.page.goto(await invitationLink(declined.email, teamId, 'reject'));
    await expect(fourth.page.getByText('You have declined the invitation.')).toBeVisible();
    await expect(fourth.page.getByRole('link', { name: 'Back to home' })).toBeVisible();
    await fourth.close();
    await page.reload();
    await expect(memberRow(panel, 'Dario')).toContainText('Invitation Rejected');
  });
});

const VARIANTS = [
  { suffix: 'light', colorScheme: 'light', viewport: undefined },
  { suffix: 'dark', colorScheme: 'dark', viewport: undefined },
  { suffix: 'phone', colorScheme: 'light', viewport: PHONE },
] as const;

for (const variant of VARIANTS) {
  test.describe(`screenshots, ${variant.suffix}`, () => {
    test.use({
      colorScheme: variant.colorScheme,
      ...(variant.viewport ? { viewport: variant.viewport } : {}),
    });

    test(`teams screens (${variant.suffix})`, async ({ page, request, browser, baseURL }) => {
      test.setTimeout(90_000);
      const phone = variant.viewport !== undefined;
      const shot = (screen: string, target: Page = page, fullPage = true) =>
        target.screenshot({
          path: `${SCREENSHOT_DIR}teams-${screen}-${variant.suffix}.png`,
          fullPage,
          animations: 'disabled',
        });

      const owner = newAccount('shots');
      await createVerifiedAccount(request, owner);
      await signInAsOwner(page, owner.email, owner.password);
      const token = await sessionToken(page);
      await apiCreateTeam(request, token, { name: 'Photo club', mode: 'controlled' });
      const teamId = await apiCreateTeam(request, token, {
        name: 'Riverside Community Choir',
        description: 'Rehearsal recordings, scores and concert photos',
        nickname: 'Maestra Ada',
      });
      const alias = `riverside-${uniqueSuffix()}`;
      await apiAddAlias(request, token, teamId, alias);
      await apiInvite(request, token, teamId, {
        email: newAccount('bea').email,
        nickname: 'Bea Rossi',
        role: 'viewer',
      });
      await apiAddInternal(request, token, teamId, 'luca.bianchi');

      await page.goto('/teams');
      await expect(page.getByRole('link', { name: /Riverside Community Choir/ })).toBeVisible();
      await shot('list');

      await page.getByRole('button', { name: 'New team' }).click();
      await expect(page.getByRole('dialog', { name: 'Create a team' })).toBeVisible();
      await shot('create-team', page, false);
      await page.getByRole('button', { name: 'Cancel' }).click();

      await page.goto(`/teams/${alias}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Riverside Community Choir');
      await openTeamMenuItem(page, 'Details');
      await expect(page.getByRole('dialog', { name: 'Team details' })).toBeVisible();
      await shot('details', page, false);
      await page.getByRole('button', { name: 'Close' }).click();
      await openTeamMenuItem(page, 'Add alias');
      await page.getByRole('textbox', { name: 'Alias' }).fill('riverside-singers');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('Once assigned it cannot be changed.')).toBeVisible();
      await shot('alias-confirm', page, false);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      if (phone) {
        // The dashboard itself keeps the full width; the members open over it.
        await shot('dashboard-closed');
        await page.getByRole('button', { name: 'Members' }).click();
      }
      await expect(page.getByText('Bea Rossi', { exact: true })).toBeVisible();
      await expect(page.getByText('luca.bianchi', { exact: true })).toBeVisible();
      await shot('dashboard', page, !phone);

      await page.getByRole('button', { name: 'Actions for Bea Rossi' }).click();
      await expect(page.getByRole('menuitem', { name: 'Resend invitation' })).toBeVisible();
      await shot('member-menu', page, false);
      await page.getByRole('menuitem', { name: 'Info' }).click();
      await expect(page.getByRole('dialog', { name: 'Member details' })).toBeVisible();
      await shot('member-info', page, false);
      await page.getByRole('button', { name: 'Close' }).click();

      await page.getByRole('button', { name: 'Add member' }).click();
      const add = page.getByRole('dialog', { name: 'Add a member' });
      await expect(add.getByRole('textbox', { name: 'E-mail' })).toBeVisible();
      await shot('add-member', page, false);
      await add.getByRole('tab', { name: 'Internal contributor' }).click();
      await add.getByLabel('Username').fill('giulia.verdi');
      await add.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByRole('dialog', { name: 'Sign-in details' })).toBeVisible();
      await shot('credentials', page, false);
      await page.getByRole('button', { name: 'Done' }).click();

      const invitee = newAccount('shot-invitee');
      await apiInvite(request, token, teamId, {
        email: invitee.email,
        nickname: 'Carla',
        role: 'uploader',
      });
      const other = await otherBrowser(
        browser,
        baseURL,
        {
          colorScheme: variant.colorScheme,
          ...(variant.viewport ? { viewport: variant.viewport } : {}),
        },
        [409],
      );
      await other.page.goto(await invitationLink(invitee.email, teamId, 'accept'));
      await expect(other.page.getByLabel('E-mail')).toHaveValue(invitee.email);
      await shot('accept', other.page);
      await other.close();
    });
  });
}
