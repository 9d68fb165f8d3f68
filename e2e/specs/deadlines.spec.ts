import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { setServerClockOffset } from '../support/clock.js';
import { apiCreateCollection } from '../support/collections.js';
import { linkIn, waitForMail } from '../support/mailbox.js';
import { apiCreateTeam, sessionToken, signInAsOwner } from '../support/teams.js';
import { apiJoinedMember } from '../support/owner.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENSHOT_DIR}deadlines-${name}.png`,
    fullPage: true,
  });
}

/** "2026-12-04T18:00" three days from now, as a datetime-local field takes it. */
function localInDays(days: number): string {
  const at = new Date(Date.now() + days * 24 * 60 * 60_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T18:00`;
}

test.describe('collection deadlines', () => {
  test('a deadline set on a phone shows on the list; a reminder reaches the contributor', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('deadline-owner');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const ownerToken = await sessionToken(page);
    const teamId = await apiCreateTeam(request, ownerToken, { name: 'Choir', nickname: 'Olga' });
    const { account: singer } = await apiJoinedMember(
      request,
      ownerToken,
      teamId,
      'deadline-singer',
      { nickname: 'Ugo', role: 'uploader' },
    );

    // On a phone, dark: the owner creates a collection with a deadline three days ahead.
    const context = await browser.newContext({
      baseURL,
      storageState: await page.context().storageState(),
      colorScheme: 'dark',
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      timezoneId: 'Europe/Rome',
    });
    const phone = await context.newPage();
    await phone.goto(`/teams/${teamId}`);
    await phone.getByRole('button', { name: 'New collection' }).first().click();
    const create = phone.getByRole('dialog', { name: 'New collection' });
    await create.getByLabel('Collection name').fill('Concert photos');
    await expect(create.getByRole('combobox', { name: 'Time zone' })).toHaveValue('Europe/Rome');
    await create.getByTestId('deadline').fill(localInDays(3));
    await create.getByRole('switch', { name: 'Allow late uploads' }).check();
    await shot(phone, 'create-dark-phone');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create).toBeHidden();
    const list = phone.getByRole('list', { name: 'Collections' });
    const row = list.getByRole('listitem').filter({ hasText: 'Concert photos' });
    await expect(row.getByTestId('due-chip')).toHaveText('Due in 3 days');
    await shot(phone, 'list-dark-phone');

    // The owner sends a reminder now, from the collection's menu (desktop, light).
    await page.goto(`/teams/${teamId}`);
    await page.getByRole('button', { name: 'Actions for Concert photos' }).click();
    await page.getByRole('menuitem', { name: 'Send reminder now' }).click();
    await expect(page.getByText(/Reminder sent to 2 people/)).toBeVisible();
    await shot(page, 'list-light');
    const mail = await waitForMail(singer.email, /Reminder: “Concert photos”/);
    const link = linkIn(mail, `/upload/teams/${teamId}/collections/`);
    expect(new URL(link).pathname).toMatch(
      /^\/upload\/teams\/[0-9a-f-]+\/collections\/[0-9a-f-]+$/,
    );
    await context.close();
  });

  test('a reminder e-mail arrives when its time comes on the server clock, not before', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const owner = newAccount('clock-owner');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const ownerToken = await sessionToken(page);
    const teamId = await apiCreateTeam(request, ownerToken, { name: 'Band', nickname: 'Olga' });
    const { account: singer } = await apiJoinedMember(request, ownerToken, teamId, 'clock-singer', {
      nickname: 'Ugo',
      role: 'uploader',
    });
    // Due 3 days and 20 minutes from now (UTC): the 3-day reminder is 20 minutes away.
    const at = new Date(Date.now() + 3 * 24 * 60 * 60_000 + 20 * 60_000);
    const local = at.toISOString().slice(0, 16);
    await apiCreateCollection(request, ownerToken, teamId, {
      name: 'Rehearsal videos',
      deadline: { local, timeZone: 'UTC' },
    });
    const reminders = async () => {
      const port = process.env.E2E_MAILBOX_PORT ?? '';
      const res = await fetch(
        `http://127.0.0.1:${port}/messages?to=${encodeURIComponent(singer.email)}`,
      );
      const { messages } = (await res.json()) as { messages: { subject: string }[] };
      return messages.filter((m) => m.subject.includes('Rehearsal videos')).length;
    };
    try {
      // 16 minutes on: the reminder job runs (every 15 minutes) but nothing is due yet.
      setServerClockOffset(16 * 60_000);
      await page.waitForTimeout(3000);
      expect(await reminders()).toBe(0);
      // 32 minutes on: the job runs again and the reminder is due.
      setServerClockOffset(32 * 60_000);
      const mail = await waitForMail(singer.email, /Reminder: “Rehearsal videos”/, 30_000);
      expect(new URL(linkIn(mail, `/upload/teams/${teamId}/collections/`)).pathname).toMatch(
        /\/collections\/[0-9a-f-]{36}$/,
      );
      await page.waitForTimeout(2000);
      expect(await reminders()).toBe(1);
    } finally {
      setServerClockOffset(0);
    }
  });
});
