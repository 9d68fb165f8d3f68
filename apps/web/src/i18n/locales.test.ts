import {
  DISPLAY_MEMBER_STATUSES,
  ERROR_CODES,
  MEMBER_ROLES,
  VALIDATION_MESSAGE_KEYS,
  VALIDATION_MESSAGES_EN,
} from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import it_ from './locales/it.json';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [childPath, text] of flatten(value, path)) entries.set(childPath, text);
  }
  return entries;
}

const english = flatten(en);
const italian = flatten(it_);

function expectTranslated(group: string, keys: readonly string[], minimumDiffering: number): void {
  let differing = 0;
  for (const key of keys) {
    const path = `${group}.${key}`;
    expect(english.get(path)?.trim(), `en ${path}`).toBeTruthy();
    expect(italian.get(path)?.trim(), `it ${path}`).toBeTruthy();
    if (english.get(path) !== italian.get(path)) differing += 1;
  }
  expect(differing / keys.length).toBeGreaterThanOrEqual(minimumDiffering);
}

/**
 * Keys whose Italian text is rightly the same as the English one: names, and words Italian uses
 * as they are. Any other identical text is an untranslated one.
 */
const SAME_IN_BOTH: Readonly<Record<string, string>> = {
  'common.appName': 'the product name',
  'languageSwitcher.en': 'a language is named in its own language in every interface language',
  'languageSwitcher.it': 'a language is named in its own language in every interface language',
  'common.logoAlt': 'the product name',
  'footer.copyright': 'the product name',
  'auth.fields.email': '“E-mail” is Italian too',
  'profile.email': '“E-mail” is Italian too',
  'members.fields.email': '“E-mail” is Italian too',
  'members.info.email': '“E-mail” is Italian too',
  'newsletter.subscribe.email': '“E-mail” is Italian too',
  'providers.email_password': '“E-mail/Password” is Italian too',
  'auth.fields.password': '“Password” is Italian too',
  'members.credentials.password': '“Password” is Italian too',
  'uploadApp.guest.password': '“Password” is Italian too',
  'team.alias.label': '“Alias” is Italian too',
  'statusPage.problems.database': '“database” is Italian too',
  'collections.row.files_one': '“file” is Italian too, and invariable',
  'downloads.page.files_one': '“file” is Italian too, and invariable',
  'uploadLinks.fileCount_one': '“file” is Italian too, and invariable',
  'downloads.page.title': '“Download” is the word the Italian texts use throughout',
  'documentTitle.app': 'the page name (translated) beside the product name',
};

/** Whether a text has words to translate: a letter outside its {{placeholders}}. */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/{{\w+}}/g, ''));

describe('translations', () => {
  it('have exactly the same keys in English and Italian', () => {
    expect([...italian.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('have no empty text', () => {
    for (const [path, text] of [...english, ...italian]) expect(text.trim(), path).not.toBe('');
  });

  it('translate every Italian text: none is the English one, except the words both share', () => {
    const untranslated = [...english]
      .filter(([path, text]) => italian.get(path) === text && hasWords(text))
      .filter(([path]) => !(path in SAME_IN_BOTH))
      .map(([path, text]) => `${path}: «${text}»`);
    expect(untranslated, `untranslated Italian texts:\n${untranslated.join('\n')}`).toEqual([]);
  });

  it('keep the allow-list of shared words current', () => {
    for (const path of Object.keys(SAME_IN_BOTH)) {
      expect(english.get(path), path).toBeDefined();
      expect(italian.get(path), path).toBe(english.get(path));
    }
  });

  it('spell “e-mail” one way in both languages: E-mail, e-mail inside a sentence', () => {
    const other = /\b(?:email|Email|EMAIL|E-Mail|e-Mail|eMail|E-mails?(?=[A-Z]))\b/;
    const misspelt = [...english, ...italian]
      .map(([path, text]) => [path, text.replace(/{{\w+}}/g, '')] as const)
      .filter(([, text]) => other.test(text))
      .map(([path, text]) => `${path}: ${text}`);
    expect(misspelt).toEqual([]);
  });

  it('keep the same interpolation placeholders in both languages', () => {
    const placeholders = (text: string | undefined) => (text?.match(/{{\w+}}/g) ?? []).sort();
    for (const [path, text] of english) {
      expect(placeholders(italian.get(path)), path).toEqual(placeholders(text));
    }
  });

  it('translate every error code, with real Italian', () => {
    expectTranslated('errors', ERROR_CODES, 0.95);
    // Only error codes live in the errors group, so a renamed code does not leave a stale text.
    expect(Object.keys(en.errors).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('translate every validation message key of contracts, and only those', () => {
    expectTranslated('validation', VALIDATION_MESSAGE_KEYS, 0.95);
    expect(Object.keys(en.validation).sort()).toEqual([...VALIDATION_MESSAGE_KEYS].sort());
  });

  it('use the English validation texts the spec gives word for word', () => {
    for (const [key, text] of Object.entries(VALIDATION_MESSAGES_EN)) {
      expect(english.get(`validation.${key}`), key).toBe(text);
    }
  });

  it('translate the upload app into real Italian', () => {
    const keys = [...english.keys()]
      .filter((path) => path.startsWith('uploadApp.'))
      .map((path) => path.slice('uploadApp.'.length));
    expect(keys.length).toBeGreaterThan(50);
    // A few texts are the same in both (a percentage, "{{sent}} of {{total}}" is not).
    expectTranslated('uploadApp', keys, 0.95);
  });

  it('use typographic apostrophes, and Italian quotation marks in Italian', () => {
    for (const [path, text] of [...english, ...italian]) expect(text, path).not.toContain("'");
    for (const [path, text] of italian) expect(text, path).not.toMatch(/[“”]/);
  });

  it('end a text with the same punctuation in both languages', () => {
    const ending = (text: string) => /[.!?…:]$/.exec(text.trim())?.[0] ?? '';
    for (const [path, text] of english) {
      expect(ending(italian.get(path) ?? ''), path).toBe(ending(text));
    }
  });

  it('speak of a member in Italian without a gendered participle or adjective', () => {
    const memberTexts = [...italian].filter(
      ([path]) =>
        /^members\.(?:done|remove|disable|resetPassword|info|fields)\./.test(path) ||
        path === 'invitations.accept.success',
    );
    expect(memberTexts.length).toBeGreaterThan(20);
    const gendered =
      /\b(?:stat[oa]|rimoss[oa]|disattivat[oa]|riattivat[oa]|disconness[oa]|entrat[oa]|aggiunt[oa]|attiv[oa]|lo|la) (?!password)/;
    for (const [path, text] of memberTexts) {
      if (path === 'members.done.invited' || path === 'members.done.resendInvitation') continue;
      expect(text, path).not.toMatch(gendered);
    }
  });

  it('translate roles and member statuses with the spec labels', () => {
    expectTranslated('roles', MEMBER_ROLES, 1);
    expectTranslated('status', DISPLAY_MEMBER_STATUSES, 1);
    expect(en.roles).toEqual({
      owner: 'Owner',
      admin: 'Administrator',
      uploader: 'Contributor',
      viewer: 'Viewer',
    });
    expect(en.status.pending).toBe('Idle');
    expect(en.status.rejected).toBe('Invitation Rejected');
    expect(en.status.invitation_expired).toBe('Invitation expired');
  });
});
