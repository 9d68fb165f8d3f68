import type { LegalDocument } from '@raccolta/contracts';
import { z } from 'zod';
import type { Language } from '../../../i18n';
import privacyEn from './privacy.en.json';
import privacyIt from './privacy.it.json';
import termsEn from './terms.en.json';
import termsIt from './terms.it.json';

const text = z.string().trim().min(1);

export const legalSectionSchema = z.strictObject({
  heading: text,
  description: text,
  bullets: z.array(text),
  conclusion: text.optional(),
});

/** A legal text in one language: content, not locale keys, versioned by its date (YYYY-MM-DD). */
export const legalDocumentSchema = z.strictObject({
  version: z.iso.date(),
  title: text,
  sections: z.array(legalSectionSchema).min(1),
});

export type LegalSection = z.infer<typeof legalSectionSchema>;
export type LegalDocumentContent = z.infer<typeof legalDocumentSchema>;

export const LEGAL_CONTENT: Record<LegalDocument, Record<Language, unknown>> = {
  terms: { en: termsEn, it: termsIt },
  privacy: { en: privacyEn, it: privacyIt },
};

const parsed = new Map<string, LegalDocumentContent>();

/**
 * The document in the language asked for. The files are checked by the unit tests; parsing here
 * too means a malformed file fails loudly instead of rendering half a page.
 */
export function legalDocument(document: LegalDocument, language: Language): LegalDocumentContent {
  const key = `${document}.${language}`;
  let content = parsed.get(key);
  if (content === undefined) {
    content = legalDocumentSchema.parse(LEGAL_CONTENT[document][language]);
    parsed.set(key, content);
  }
  return content;
}
