import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { createVerifiedAccount, newAccount } from '../support/accounts.js';
import { otherBrowser } from '../support/browser.js';
import { linkIn, waitForMail } from '../support/mailbox.js';
import {
  apiCreateTeam,
  apiInvite,
  invitationLink,
  sessionToken,
  signInAsOwner,
} from '../support/teams.js';
import { expect, test } from '../support/test.js';

const SCREENSHOT_DIR = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
const PHONE = { width: 375, height: 740 };

/** A phone in light and dark, in English and Italian: how a newcomer meets these screens. */
const LOOKS = [
  { name: 'light-en', colorScheme: 'light', locale: 'en-GB' },
  { name: 'dark-en', colorScheme: 'dark', locale: 'en-GB' },
  { name: 'dark-it', colorScheme: 'dark', locale: 'it-IT' },
] as const;

const TEXTS = {
  'light-en': {
    askManager: 'Ask your team’s manager for a new password.',
    forgotTitle: 'Forgot your password?',
    alreadyConfirmed: 'This address is already confirmed',
    uploadApp: 'Open the upload app',
    goToTeam: 'Go to the team',
  },
  'dark-it': {
    askManager: 'Chiedi una nuova password a chi gestisce il tuo team.',
    forgotTitle: 'Password dimenticata?',
    alreadyConfirmed: 'Questo indirizzo è già confermato',
    uploadApp: 'Apri l’app di caricamento',
    goToTeam: 'Vai al team',
  },
} as const;
const textsOf = (look: (typeof LOOKS)[number]) =>
  look.locale === 'it-IT' ? TEXTS['dark-it'] : TEXTS['light-en'];

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    animations: 'disabled',
    path: `${SCREENSHOT_DIR}newcomer-${name}.png`,
    fullPage: true,
  });
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits, `${name} overflows 375 px`).toBe(true);
}

const lookOptions = (look: (typeof LOOKS)[number]) => ({
  viewport: PHONE,
  isMobile: true,
  hasTouch: true,
  colorScheme: look.colorScheme,
  locale: look.locale,
});

test.describe('what a newcomer meets on a phone', () => {
  test('the upload app says whom contributors ask for a new password', async ({
    browser,
    baseURL,
  }) => {
    for (const look of LOOKS) {
      const texts = textsOf(look);
      const phone = await otherBrowser(browser, baseURL, lookOptions(look));
      await phone.page.goto('/upload/signin');
      await expect(phone.page.getByText(texts.askManager, { exact: false })).toBeVisible();
      await shot(phone.page, `upload-signin-${look.name}`);
      await phone.page.getByRole('link', { name: texts.forgotTitle }).click();
      await expect(phone.page.getByRole('alert')).toContainText(texts.askManager);
      await shot(phone.page, `upload-forgot-${look.name}`);
      await phone.close();
    }
  });

  test('a newsletter link opened again says the address is already confirmed', async ({
    browser,
    baseURL,
  }) => {
    const email = newAccount('confirmed').email;
    const first = await otherBrowser(browser, baseURL);
    await first.page.goto('/');
    await first.page.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await first.page.getByRole('checkbox', { name: /I accept/ }).check();
    await first.page.getByRole('textbox', { name: 'E-mail' }).press('Enter');
    const link = linkIn(
      await waitForMail(email, /Confirm your subscription/),
      '/newsletter/confirm',
    );
    await first.page.goto(link);
    await expect(first.page.getByText('Your subscription is confirmed')).toBeVisible();
    await first.close();
    for (const look of LOOKS) {
      const phone = await otherBrowser(browser, baseURL, lookOptions(look));
      await phone.page.goto(link);
      await expect(phone.page.getByText(textsOf(look).alreadyConfirmed)).toBeVisible();
      await shot(phone.page, `newsletter-already-${look.name}`);
      await phone.close();
    }
  });

  test('the credentials show the short team code; contributors land on the upload app first', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const owner = newAccount('codes');
    await createVerifiedAccount(request, owner);
    await signInAsOwner(page, owner.email, owner.password);
    const token = await sessionToken(page);
    const teamId = await apiCreateTeam(request, token, { name: 'Cantiere' });
    const storageState = await page.context().storageState();

    for (const look of LOOKS) {
      const texts = textsOf(look);
      // The owner adds an internal contributor on a phone.
      const manager = await otherBrowser(browser, baseURL, { ...lookOptions(look), storageState });
      await manager.page.goto(`/teams/${teamId}`);
      await manager.page.getByRole('button', { name: /^(Members|Membri)$/ }).click();
      await manager.page.getByRole('button', { name: /^(Add member|Aggiungi membro)$/ }).click();
      await manager.page
        .getByRole('tab', { name: /^(Internal contributor|Collaboratore interno)$/ })
        .click();
      await manager.page
        .getByLabel(/^(Username|Nome utente)/)
        .fill(`mario.${look.name.replace('-', '')}`);
      await manager.page.getByRole('button', { name: /^(Create account|Crea l’account)$/ }).click();
      const credentials = manager.page.getByRole('dialog');
      await expect(credentials.getByLabel(/^(Team code|Codice del team)$/)).toHaveValue(
        /^[2-9A-HJKMNP-Z]{7}$/,
      );
      await shot(manager.page, `credentials-${look.name}`);
      await manager.close();

      // An invited contributor accepts: the upload app is the first way on.
      const invitee = newAccount(`contrib${look.name.replace('-', '')}`);
      await apiInvite(request, token, teamId, {
        email: invitee.email,
        nickname: `Carla ${look.name}`,
        role: 'uploader',
      });
      // 409 newInvitedAccountRequired: the first answer asks for a password.
      const guest = await otherBrowser(browser, baseURL, lookOptions(look), [409]);
      await guest.page.goto(await invitationLink(invitee.email, teamId, 'accept'));
      await guest.page
        .getByRole('textbox', { name: 'Password', exact: true })
        .fill(invitee.password);
      await guest.page
        .getByLabel(/^(Confirm password|Conferma la password)/)
        .fill(invitee.password);
      await guest.page
        .getByRole('button')
        .filter({ hasText: /join|entra/i })
        .click();
      const upload = guest.page.getByRole('link', { name: texts.uploadApp });
      await expect(upload).toBeVisible();
      const team = guest.page.getByRole('link', { name: texts.goToTeam });
      const [uploadBox, teamBox] = [await upload.boundingBox(), await team.boundingBox()];
      expect((uploadBox?.y ?? 0) < (teamBox?.y ?? 0)).toBe(true);
      await shot(guest.page, `accepted-contributor-${look.name}`);
      await upload.click();
      await expect(guest.page).toHaveURL(/\/upload/);
      await guest.close();
    }
  });
});
