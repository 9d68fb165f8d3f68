import { LEGAL_VERSIONS, type LegalDocument } from '@raccolta/contracts';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from '../../../i18n/detect-language';
import {
  LEGAL_CONTENT,
  legalDocument,
  legalDocumentSchema,
  type LegalDocumentContent,
} from './legal-document';

const DOCUMENTS = Object.keys(LEGAL_VERSIONS) as LegalDocument[];

/** Every text of a document with where it sits, e.g. `sections.3.bullets.1`. */
function texts(content: LegalDocumentContent): [string, string][] {
  return [
    ['title', content.title],
    ...content.sections.flatMap((section, i): [string, string][] => [
      [`sections.${i}.heading`, section.heading],
      [`sections.${i}.description`, section.description],
      ...section.bullets.map((bullet, j): [string, string] => [
        `sections.${i}.bullets.${j}`,
        bullet,
      ]),
      ...(section.conclusion === undefined
        ? []
        : [[`sections.${i}.conclusion`, section.conclusion] as [string, string]]),
    ]),
  ];
}

/** The shape without the words: section count, bullets per section, whether it concludes. */
function shape(content: LegalDocumentContent) {
  return content.sections.map((section) => ({
    bullets: section.bullets.length,
    conclusion: section.conclusion !== undefined,
  }));
}

describe.each(DOCUMENTS)('the %s document', (document) => {
  const en = legalDocument(document, 'en');
  const it_ = legalDocument(document, 'it');

  it('exists in every interface language and matches the schema', () => {
    for (const language of SUPPORTED_LANGUAGES) {
      const result = legalDocumentSchema.safeParse(LEGAL_CONTENT[document][language]);
      expect(result.error, `${document}.${language}`).toBeUndefined();
    }
  });

  it('carries the version in force in both languages', () => {
    expect(en.version).toBe(LEGAL_VERSIONS[document]);
    expect(it_.version).toBe(LEGAL_VERSIONS[document]);
  });

  it('has the same structure in English and Italian', () => {
    expect(shape(it_)).toEqual(shape(en));
    expect(texts(it_).map(([path]) => path)).toEqual(texts(en).map(([path]) => path));
  });

  it('stays readable in a few minutes: 8 to 12 sections with distinct headings', () => {
    expect(en.sections.length).toBeGreaterThanOrEqual(8);
    expect(en.sections.length).toBeLessThanOrEqual(12);
    for (const content of [en, it_]) {
      const headings = content.sections.map((section) => section.heading);
      expect(new Set(headings).size).toBe(headings.length);
    }
  });

  it('has no empty text, and every Italian text is a translation', () => {
    const italian = new Map(texts(it_));
    for (const [path, text] of texts(en)) {
      expect(text.trim(), `en ${path}`).not.toBe('');
      expect(italian.get(path)?.trim(), `it ${path}`).toBeTruthy();
      expect(italian.get(path), `it ${path}`).not.toBe(text);
    }
  });

  it('uses typographic apostrophes, and Italian quotation marks in Italian', () => {
    for (const [path, text] of [...texts(en), ...texts(it_)]) {
      expect(text, path).not.toContain("'");
      expect(text, path).not.toContain('"');
    }
    for (const [path, text] of texts(it_)) expect(text, path).not.toMatch(/[“”]/);
  });

  it('ends each text with the same punctuation in both languages', () => {
    const ending = (text: string) => /[.!?…:;]$/.exec(text.trim())?.[0] ?? '';
    const italian = new Map(texts(it_));
    for (const [path, text] of texts(en)) {
      expect(ending(italian.get(path) ?? ''), path).toBe(ending(text));
    }
  });

  it('names the retention periods and rights the service really has', () => {
    const all = (content: LegalDocumentContent) =>
      texts(content)
        .map(([, text]) => text)
        .join(' ');
    if (document === 'privacy') {
      expect(all(en)).toMatch(/argon2id/);
      expect(all(en)).toMatch(/365 days/);
      expect(all(en)).toMatch(/within 5 days/);
      expect(all(it_)).toMatch(/Garante per la protezione dei dati personali/);
      expect(all(it_)).toMatch(/entro 5 giorni/);
      // The banner accepts by scrolling (spec §9, CONSENT_ACCEPT_ON_SCROLL_PERCENTAGE): said here.
      expect(all(en)).toMatch(
        /by scrolling on: while the banner is shown, scrolling down a quarter/,
      );
      expect(all(it_)).toMatch(
        /continuando a scorrere: finché il banner è visibile, scorrere un quarto/,
      );
    } else {
      expect(all(en)).toMatch(/at least 16/);
      expect(all(it_)).toMatch(/almeno 16 anni/);
    }
  });
});
