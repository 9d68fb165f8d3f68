export const SUPPORTED_LANGUAGES = ['en', 'it'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * Italian when any entry of the browser's list is Italian, English otherwise (spec §1). The
 * detector package only honours the first supported match, which would pick English for
 * `['en-US', 'it-IT']`.
 */
export function detectLanguage(languages: readonly string[]): Language {
  const hasItalian = languages.some((tag) => tag.trim().toLowerCase().split(/[-_]/)[0] === 'it');
  return hasItalian ? 'it' : DEFAULT_LANGUAGE;
}

/** The browser's language list; older engines only expose `navigator.language`. */
export function browserLanguages(nav: Pick<Navigator, 'languages' | 'language'>): string[] {
  if (nav.languages.length > 0) return [...nav.languages];
  return nav.language ? [nav.language] : [];
}
