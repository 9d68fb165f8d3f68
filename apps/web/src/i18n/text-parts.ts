/**
 * The locale files' top-level sections the first page of a visit needs before it renders: the
 * landing page, the frame around every page (header, footer, cookie banner, the error page) and
 * the messages its form can show. The build (vite.config.ts) cuts each language's file in two
 * chunks, these sections and the rest; the rest arrives with any other page (app/page-needs.ts).
 * text-parts.test.tsx renders the landing page with the first part alone and fails on a text it
 * lacks.
 */
export const FIRST_PAGE_SECTIONS: readonly string[] = [
  'actions',
  'common',
  'consent',
  'documentTitle',
  'errorDetails',
  'errors',
  'footer',
  'form',
  'header',
  'landing',
  'languageSwitcher',
  'legal',
  'newsletter',
  'routeError',
  'validation',
];

export type TextPart = 'first' | 'rest';

/** The sections of one language's texts that belong to `part`. */
export function textPart<T extends Record<string, unknown>>(texts: T, part: TextPart): Partial<T> {
  const first = new Set(FIRST_PAGE_SECTIONS);
  return Object.fromEntries(
    Object.entries(texts).filter(([section]) => first.has(section) === (part === 'first')),
  ) as Partial<T>;
}
