import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { request as apiRequest, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount, newAccount, verificationLink } from '../support/accounts.js';
import { apiCreateCollection, apiUploadFile } from '../support/collections.js';
import { gradientPng } from '../support/images.js';
import { linkIn, waitForMail } from '../support/mailbox.js';
import {
  apiAddInternal,
  apiCreateTeam,
  apiInvite,
  invitationLink,
  sessionToken,
  signInAsOwner,
} from '../support/teams.js';
import { expect as baseExpect, test } from '../support/test.js';

/** A loaded machine may take a while to show a page after its data; the check waits for it. */
const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * axe-core on every screen of the app, in light and dark, English and Italian: no serious or
 * critical violation of WCAG 2.0/2.1 A and AA (colour contrast included), and every form control
 * has an accessible name. The data is made once; each screen then only opens its page.
 * A new page is one more entry in SCREENS.
 */

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
/** A screenshot of every checked state with A11Y_SCREENSHOTS=1; otherwise of those that fail. */
const SCREENSHOTS = process.env.A11Y_SCREENSHOTS === '1';
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Roles of form controls (ARIA "widget" roles a person fills in or toggles). */
const FORM_CONTROL_ROLES = new Set([
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
]);

type Language = 'en' | 'it';
type Texts = Map<string, string>;

function flatten(tree: Record<string, unknown>, prefix = '', into: Texts = new Map()): Texts {
  for (const [key, value] of Object.entries(tree)) {
    const at = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') into.set(at, value);
    else flatten(value as Record<string, unknown>, at, into);
  }
  return into;
}

const LOCALES: Record<Language, Texts> = {
  en: flatten(readLocale('en')),
  it: flatten(readLocale('it')),
};

function readLocale(language: Language): Record<string, unknown> {
  const file = new URL(`../../apps/web/src/i18n/locales/${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** The app's text for a key in the variant's language, as the page shows it. */
type Translate = (key: string, values?: Record<string, string>) => string;

function translator(language: Language): Translate {
  return (key, values = {}) => {
    const text = LOCALES[language].get(key);
    if (text === undefined) throw new Error(`no text for ${key}`);
    return text.replace(/{{(\w+)}}/g, (_, name: string) => values[name] ?? '');
  };
}

/** What the screens need, made once through the API and the mailbox. */
interface Data {
  teamId: string;
  teamName: string;
  collectionId: string;
  collectionName: string;
  fileName: string;
  downloadId: string;
  resetLink: string;
  /** An invitation for an address without an account: its page asks for a password, each time. */
  newAccountInvitation: string;
  /** One-shot links, one per variant (round). */
  verifyLinks: string[];
  acceptLinks: string[];
  rejectLinks: string[];
}

interface Visit {
  page: Page;
  data: Data;
  t: Translate;
  /** Which variant this is (0–3), to pick a one-shot link of its own. */
  round: number;
  /** Runs the checks on what the page shows now; `state` names it in the report. */
  check: (state: string) => Promise<void>;
}

interface Screen {
  name: string;
  session: 'guest' | 'owner';
  /** HTTP error answers the screen provokes on purpose (an invalid link's state). */
  allowedStatuses?: number[];
  visit: (visit: Visit) => Promise<void>;
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).first();

/** A page whose state is what it shows on load, once `ready` holds. */
function page(
  name: string,
  session: Screen['session'],
  url: (data: Data, round: number) => string,
  ready: (page: Page, t: Translate, data: Data) => Promise<void> = (p) =>
    expect(h1(p)).toBeVisible(),
  allowedStatuses?: number[],
): Screen {
  return {
    name,
    session,
    ...(allowedStatuses ? { allowedStatuses } : {}),
    visit: async ({ page: p, data, t, round, check }) => {
      await p.goto(url(data, round));
      await ready(p, t, data);
      await check(name);
    },
  };
}

/** A link whose one-shot `param` (key, code) is replaced by an unknown one of the same shape. */
function unknownKey(link: string, param = 'key'): string {
  const url = new URL(link);
  const key = url.searchParams.get(param) ?? '';
  url.searchParams.set(param, `${key.slice(0, -4)}${key.endsWith('aaaa') ? 'bbbb' : 'aaaa'}`);
  return url.pathname + url.search;
}

const pathOf = (link: string) => {
  const url = new URL(link);
  return url.pathname + url.search;
};

const alert = (p: Page) => expect(p.getByRole('alert').first()).toBeVisible();

async function openTeamMenuItem(p: Page, t: Translate, teamName: string, item: string) {
  const menu = p.getByRole('menu');
  await expect(async () => {
    if (!(await menu.isVisible())) {
      await p.getByRole('button', { name: t('team.menu.open', { name: teamName }) }).click();
    }
    await p.getByRole('menuitem', { name: t(item) }).click({ timeout: 3_000 });
    await expect(menu).toBeHidden({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

async function closeDialog(p: Page, t: Translate) {
  await p
    .getByRole('dialog')
    .getByRole('button', { name: t('actions.cancel') })
    .last()
    .click();
  await expect(p.getByRole('dialog')).toHaveCount(0);
}

/** Every page of the app and the states worth checking. One entry per page. */
const SCREENS: Screen[] = [
  // Public and auth pages.
  page('landing', 'guest', () => '/'),
  page('sign in', 'guest', () => '/auth/signin'),
  page('sign up', 'guest', () => '/auth/signup'),
  page('forgot password', 'guest', () => '/auth/forgot'),
  page('reset password', 'guest', (d) => pathOf(d.resetLink)),
  page('reset password, invalid link', 'guest', () => '/auth/reset', alert),
  page(
    'verify e-mail, success',
    'guest',
    (d, round) => pathOf(d.verifyLinks[round] ?? ''),
    (p, t) => expect(p.getByText(t('auth.verify.success'))).toBeVisible(),
  ),
  page('verify e-mail, invalid link', 'guest', () => '/auth/verify', alert),
  page(
    'verify e-mail, wrong code',
    'guest',
    (d) => unknownKey(d.verifyLinks[0] ?? '', 'code'),
    alert,
    [400, 404, 409, 410],
  ),
  page(
    'backend status',
    'guest',
    () => '/status',
    (p, t) => expect(p.getByText(t('statusPage.states.ok'), { exact: true })).toBeVisible(),
  ),
  page('page not found', 'guest', () => '/404'),
  page(
    'accept invitation, new account',
    'guest',
    (d) => pathOf(d.newAccountInvitation),
    (p, t) =>
      expect(p.getByRole('button', { name: t('invitations.accept.register') })).toBeVisible(),
    [409],
  ),
  {
    name: 'accept invitation, joined',
    session: 'guest',
    allowedStatuses: [409],
    visit: async ({ page: p, data, t, round, check }) => {
      await p.goto(pathOf(data.acceptLinks[round] ?? ''));
      await p
        .getByRole('textbox', { name: t('auth.fields.password'), exact: true })
        .fill('Secret-pass-1');
      await p.getByLabel(t('auth.fields.confirmPassword')).fill('Secret-pass-1');
      await p.getByRole('button', { name: t('invitations.accept.register') }).click();
      await expect(p.getByRole('link', { name: t('invitations.accept.goToTeam') })).toBeVisible();
      await check('accept invitation, joined');
    },
  },
  page(
    'accept invitation, invalid link',
    'guest',
    (d) => `/teams/${d.teamId}/invitations/accept`,
    alert,
  ),
  page(
    'accept invitation, unknown key',
    'guest',
    (d) => unknownKey(d.newAccountInvitation),
    alert,
    [404],
  ),
  page(
    'decline invitation',
    'guest',
    (d, round) => pathOf(d.rejectLinks[round] ?? ''),
    (p, t) => expect(p.getByText(t('invitations.reject.success'))).toBeVisible(),
  ),
  page(
    'decline invitation, invalid link',
    'guest',
    (d) => `/teams/${d.teamId}/invitations/reject`,
    alert,
  ),
  page(
    'decline invitation, unknown key',
    'guest',
    (d) => unknownKey(d.newAccountInvitation).replace('/accept', '/reject'),
    alert,
    [404],
  ),
  page('upload app sign in', 'guest', () => '/upload/signin'),

  // Signed in: teams.
  {
    name: 'teams',
    session: 'owner',
    visit: async ({ page: p, t, check }) => {
      await p.goto('/teams');
      await expect(p.getByRole('heading', { name: t('teams.title') })).toBeVisible();
      await check('teams');
      await p.getByRole('button', { name: t('teams.newTeam') }).click();
      await expect(p.getByRole('dialog', { name: t('teams.create.title') })).toBeVisible();
      await check('create team dialog');
    },
  },
  page('switch team', 'owner', () => '/switch-team'),
  {
    name: 'team dashboard',
    session: 'owner',
    visit: async ({ page: p, data, t, check }) => {
      await p.goto(`/teams/${data.teamId}`);
      await expect(p.getByRole('link', { name: data.collectionName, exact: true })).toBeVisible();
      await expect(p.getByText('Bea Rossi')).toBeVisible();
      await check('team dashboard');
      await p
        .getByRole('button', { name: t('collections.new') })
        .first()
        .click();
      await expect(p.getByRole('dialog', { name: t('collections.create.title') })).toBeVisible();
      await check('create collection dialog');
      await closeDialog(p, t);
      await openTeamMenuItem(p, t, data.teamName, 'team.menu.details');
      await expect(p.getByRole('dialog', { name: t('team.details.title') })).toBeVisible();
      await check('team details dialog');
      await p
        .getByRole('dialog')
        .getByRole('button', { name: t('actions.close') })
        .click();
      await expect(p.getByRole('dialog')).toHaveCount(0);
      await openTeamMenuItem(p, t, data.teamName, 'team.menu.rename');
      await expect(p.getByRole('dialog', { name: t('team.rename.title') })).toBeVisible();
      await check('rename team dialog');
      await closeDialog(p, t);
      await openTeamMenuItem(p, t, data.teamName, 'team.menu.addAlias');
      await expect(p.getByRole('dialog', { name: t('team.alias.title') })).toBeVisible();
      await check('add alias dialog');
    },
  },
  {
    name: 'members',
    session: 'owner',
    visit: async ({ page: p, data, t, check }) => {
      await p.goto(`/teams/${data.teamId}`);
      const actions = p.getByRole('button', {
        name: t('members.actionsFor', { name: 'Bea Rossi' }),
      });
      await actions.click();
      await expect(p.getByRole('menuitem', { name: t('members.actions.info') })).toBeVisible();
      await check('member menu');
      await p.getByRole('menuitem', { name: t('members.actions.info') }).click();
      await expect(p.getByRole('dialog', { name: t('members.info.title') })).toBeVisible();
      await check('member details dialog');
      await p
        .getByRole('dialog')
        .getByRole('button', { name: t('actions.close') })
        .click();
      await expect(p.getByRole('dialog')).toHaveCount(0);
      await actions.click();
      await p.getByRole('menuitem', { name: t('members.actions.rename') }).click();
      await expect(p.getByRole('dialog')).toBeVisible();
      await check('rename member dialog');
      await closeDialog(p, t);
      await p.getByRole('button', { name: t('members.add.button') }).click();
      const add = p.getByRole('dialog', { name: t('members.add.title') });
      await expect(add.getByRole('textbox', { name: t('members.fields.email') })).toBeVisible();
      await check('add member dialog, invitation');
      await add.getByRole('tab', { name: t('members.add.internalTab') }).click();
      await expect(add.getByRole('button', { name: t('members.add.create') })).toBeVisible();
      await check('add member dialog, internal contributor');
    },
  },

  // Signed in: collections, files, downloads, profile.
  {
    name: 'files',
    session: 'owner',
    visit: async ({ page: p, data, t, check }) => {
      await p.goto(`/teams/${data.teamId}/collections/${data.collectionId}`);
      const file = p.getByRole('button', { name: data.fileName, exact: true }).first();
      await expect(file).toBeVisible();
      await check('files');
      await p.getByRole('button', { name: t('files.actionsFor', { name: data.fileName }) }).click();
      await expect(p.getByRole('menu')).toBeVisible();
      await check('file menu');
      await p.keyboard.press('Escape');
      await expect(p.getByRole('menu')).toBeHidden();
      await file.click();
      const preview = p.getByRole('dialog', { name: data.fileName });
      await expect(preview.getByRole('img', { name: data.fileName })).toBeVisible();
      await check('file preview');
    },
  },
  page(
    'download',
    'owner',
    (d) => `/teams/${d.teamId}/downloads/${d.downloadId}/download`,
    (p, t) =>
      expect(p.getByRole('button', { name: t('downloads.page.downloadAgain') })).toBeVisible(),
  ),
  page(
    'profile',
    'owner',
    () => '/profile',
    (p, t) => expect(p.getByRole('button', { name: t('actions.save') })).toBeVisible(),
  ),

  // Signed in: the upload app.
  page('upload app teams', 'owner', () => '/upload'),
  page(
    'upload app collections',
    'owner',
    (d) => `/upload/teams/${d.teamId}`,
    (p, _t, d) => expect(p.getByRole('heading', { level: 1, name: d.teamName })).toBeVisible(),
  ),
  page(
    'upload app collection',
    'owner',
    (d) => `/upload/teams/${d.teamId}/collections/${d.collectionId}`,
    (p, _t, d) =>
      expect(p.getByRole('heading', { level: 1, name: d.collectionName })).toBeVisible(),
  ),
];

const VARIANTS = [
  { colorScheme: 'light', language: 'en' },
  { colorScheme: 'dark', language: 'en' },
  { colorScheme: 'light', language: 'it' },
  { colorScheme: 'dark', language: 'it' },
] as const;

/** Waits for transitions (a dialog fading in) to end: axe reads colours as they are now. */
async function settled(p: Page): Promise<void> {
  await p.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

/** axe's serious and critical violations of WCAG 2.x A/AA, one line per rule and node. */
async function axeViolations(p: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page: p })
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `${violation.id} (${violation.impact ?? ''}) ${node.target.join(' ')} ${node.html.slice(0, 160)}: ${
            node.failureSummary?.replace(/\s+/g, ' ') ?? violation.help
          }`,
      ),
    );
}

interface AxNode {
  ignored: boolean;
  role?: { value: string };
  name?: { value: string };
  backendDOMNodeId?: number;
}

/** Form controls without an accessible name, from the browser's own accessibility tree. */
async function unnamedControls(p: Page): Promise<string[]> {
  const cdp = await p.context().newCDPSession(p);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    const unnamed = nodes.filter(
      (node) =>
        !node.ignored &&
        FORM_CONTROL_ROLES.has(node.role?.value ?? '') &&
        (node.name?.value ?? '').trim() === '',
    );
    return await Promise.all(
      unnamed.map(async (node) => {
        if (node.backendDOMNodeId === undefined) return node.role?.value ?? '';
        const { node: element } = (await cdp.send('DOM.describeNode', {
          backendNodeId: node.backendDOMNodeId,
        })) as { node: { localName: string; attributes?: string[] } };
        const attributes = element.attributes ?? [];
        const shown = [];
        for (let i = 0; i < attributes.length; i += 2) {
          shown.push(`${attributes[i] ?? ''}="${attributes[i + 1] ?? ''}"`);
        }
        return `${node.role?.value ?? ''} <${element.localName} ${shown.join(' ')}>`;
      }),
    );
  } finally {
    await cdp.detach();
  }
}

let data: Data;
/**
 * The owner's signed-in browser storage. A path every worker agrees on (the run's data folder):
 * a worker started again after a failure sets the data up anew and rewrites it.
 */
const OWNER_STATE = path.join(process.env.E2E_DATA_DIR ?? tmpdir(), 'a11y-owner-state.json');

/** Sends a verification mail to a new address and answers its link, unused. */
async function unusedVerifyLink(request: APIRequestContext): Promise<string> {
  const account = newAccount('a11y-verify');
  const res = await request.post('/api/auth/signup', { data: { ...account, locale: 'en' } });
  expect(res.status()).toBe(201);
  return (await verificationLink(account.email)).href;
}

test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const baseURL = testInfo.project.use.baseURL;
  // Empty storage: the context would otherwise take the owner screens' storageState option.
  const request = await apiRequest.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
  });
  const owner = newAccount('a11y-owner');
  await createVerifiedAccount(request, owner);
  const context = await browser.newContext({
    baseURL,
    storageState: { cookies: [], origins: [] },
  });
  const signIn = await context.newPage();
  await signInAsOwner(signIn, owner.email, owner.password);
  const token = await sessionToken(signIn);
  await context.storageState({ path: OWNER_STATE });
  await context.close();

  const teamName = 'Coro di Riva';
  const teamId = await apiCreateTeam(request, token, { name: teamName, nickname: 'Maestra Ada' });
  await apiCreateTeam(request, token, { name: 'Photo club', mode: 'controlled' });
  await apiInvite(request, token, teamId, {
    email: newAccount('a11y-bea').email,
    nickname: 'Bea Rossi',
    role: 'viewer',
  });
  await apiAddInternal(request, token, teamId, `luca.${Date.now().toString(36)}`);
  const collectionName = 'Spring concert';
  const collectionId = await apiCreateCollection(request, token, teamId, { name: collectionName });
  const fileName = 'sky.png';
  await apiUploadFile(request, token, teamId, collectionId, {
    name: fileName,
    mimeType: 'image/png',
    buffer: gradientPng(200, 120, [30, 110, 220]),
  });
  await apiUploadFile(request, token, teamId, collectionId, {
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Rehearsal at eight.\n'),
  });
  const download = await request.post(`/api/teams/${teamId}/downloads`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { collectionId },
  });
  expect(download.status()).toBe(202);
  const { requestId } = (await download.json()) as { requestId: string };

  const forgot = await request.post('/api/auth/forgot-password', { data: { email: owner.email } });
  expect(forgot.ok()).toBe(true);

  const invite = async (prefix: string, action: 'accept' | 'reject') => {
    const email = newAccount(prefix.toLowerCase()).email;
    const res = await request.post(`/api/teams/${teamId}/members`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { email, nickname: prefix, role: 'uploader', locale: 'en' },
    });
    expect(res.status(), await res.text()).toBe(201);
    return invitationLink(email, teamId, action);
  };
  const rounds = VARIANTS.map((_, round) => round);
  const [newAccountInvitation, acceptLinks, rejectLinks, verifyLinks, resetMail] =
    await Promise.all([
      invite('Newcomer', 'accept'),
      Promise.all(['Anna', 'Bruno', 'Carla', 'Dario'].map((name) => invite(name, 'accept'))),
      Promise.all(['Elena', 'Franco', 'Gina', 'Ugo'].map((name) => invite(name, 'reject'))),
      Promise.all(rounds.map(() => unusedVerifyLink(request))),
      waitForMail(owner.email, /Reset your Raccolta password/),
    ]);
  data = {
    teamId,
    teamName,
    collectionId,
    collectionName,
    fileName,
    downloadId: requestId,
    resetLink: linkIn(resetMail, '/auth/reset'),
    newAccountInvitation,
    acceptLinks,
    rejectLinks,
    verifyLinks,
  };
  await request.dispose();
});

VARIANTS.forEach(({ colorScheme, language }, round) => {
  const variant = `${colorScheme}, ${language}`;
  for (const session of ['guest', 'owner'] as const) {
    test.describe(`${variant}, ${session}`, () => {
      test.use({
        colorScheme,
        locale: language === 'it' ? 'it-IT' : 'en-US',
        ...(session === 'owner' ? { storageState: OWNER_STATE } : {}),
      });
      for (const screen of SCREENS.filter((s) => s.session === session)) {
        test.describe(() => {
          test.use({ allowedStatuses: screen.allowedStatuses ?? [] });
          test(`${screen.name} (${variant})`, async ({ page: p }) => {
            // A screen may check several states, each a full axe run: slow on a loaded machine.
            test.setTimeout(90_000);
            const found: string[] = [];
            const check = async (state: string) => {
              await settled(p);
              const before = found.length;
              for (const line of await axeViolations(p)) found.push(`${state}: ${line}`);
              for (const line of await unnamedControls(p)) {
                found.push(`${state}: form control without a name: ${line}`);
              }
              if (found.length > before || SCREENSHOTS) {
                const slug = `${state}-${colorScheme}-${language}`.replace(/[^a-z0-9]+/gi, '-');
                await p.screenshot({ path: `${SCREENSHOT_DIR}a11y-${slug}.png` });
              }
            };
            await screen.visit({ page: p, data, t: translator(language), round, check });
            expect(found, `${screen.name} (${variant}):\n${found.join('\n')}`).toEqual([]);
          });
        });
      }
    });
  }
});
