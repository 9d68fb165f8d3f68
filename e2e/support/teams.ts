import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { linkIn, waitForMail } from './mailbox.js';

/** A short suffix that keeps aliases (unique across teams) apart within one run. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`;
}

/**
 * The access token of the page's signed-in session (spec §3 names the storage keys), for specs
 * that prepare data through the API: reusing it spares a sign-in, which is rate-limited per address.
 */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('AccessToken'));
  expect(token).toBeTruthy();
  return token ?? '';
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function apiCreateTeam(
  request: APIRequestContext,
  token: string,
  body: { name: string; description?: string; nickname?: string; mode?: string },
): Promise<string> {
  const res = await request.post('/api/teams', {
    headers: bearer(token),
    data: { mode: 'collaborative', ...body },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { teamId: string }).teamId;
}

export async function apiAddAlias(
  request: APIRequestContext,
  token: string,
  teamId: string,
  alias: string,
): Promise<void> {
  const res = await request.post(`/api/teams/${teamId}/aliases`, {
    headers: bearer(token),
    data: { alias, star: true },
  });
  expect(res.status()).toBe(201);
}

export async function apiInvite(
  request: APIRequestContext,
  token: string,
  teamId: string,
  invite: { email: string; nickname: string; role: 'admin' | 'uploader' | 'viewer' },
): Promise<void> {
  const res = await request.post(`/api/teams/${teamId}/members`, {
    headers: bearer(token),
    data: { ...invite, locale: 'en' },
  });
  expect(res.status()).toBe(201);
}

/** Adds an internal contributor and answers the generated password, shown only this once. */
export async function apiAddInternal(
  request: APIRequestContext,
  token: string,
  teamId: string,
  username: string,
): Promise<string> {
  const res = await request.post(`/api/teams/${teamId}/members`, {
    headers: bearer(token),
    data: { username, role: 'uploader', locale: 'en' },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { credentials: { password: string } }).credentials.password;
}

/** Fills the sign-in form (e-mail or username) and submits it. */
export async function submitSignIn(
  page: Page,
  identifier: string,
  password: string,
): Promise<void> {
  await page.getByLabel('E-mail or username').fill(identifier);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function signInAsOwner(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/signin');
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(/\/teams(\/|$)/);
}

/**
 * Opens the header's team menu and picks an item. Under load a click can land while the menu (or a
 * dialog closing behind it) is still animating and be lost; the pick is retried until the menu
 * has closed, which only choosing an item does.
 */
export async function openTeamMenuItem(page: Page, item: string): Promise<void> {
  await openMenuItem(page, /^Team menu: /, item);
}

/**
 * Opens a header menu (the team menu, the account menu) and picks an item, again if a render
 * swallowed the click: the header's menus are loaded after the page, so a click can land on a
 * button that is being replaced.
 */
export async function openMenuItem(
  page: Page,
  button: string | RegExp,
  item: string,
): Promise<void> {
  const menu = page.getByRole('menu');
  await expect(async () => {
    if (!(await menu.isVisible())) await page.getByRole('button', { name: button }).click();
    await page.getByRole('menuitem', { name: item }).click({ timeout: 3_000 });
    await expect(menu).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
}

/** A member's row in the members panel, found by the exact name it shows. */
export function memberRow(panel: Locator, nickname: string): Locator {
  return panel
    .getByRole('listitem')
    .filter({ has: panel.page().getByText(nickname, { exact: true }) });
}

export async function memberAction(
  panel: Locator,
  nickname: string,
  action: string,
): Promise<void> {
  await panel.getByRole('button', { name: `Actions for ${nickname}` }).click();
  await panel.page().getByRole('menuitem', { name: action }).click();
}

/** The accept or reject link of the newest invitation mailed to `email`. */
export async function invitationLink(
  email: string,
  teamId: string,
  action: 'accept' | 'reject',
): Promise<string> {
  const mail = await waitForMail(email, /invited you to join/);
  return linkIn(mail, `/teams/${teamId}/invitations/${action}`);
}
