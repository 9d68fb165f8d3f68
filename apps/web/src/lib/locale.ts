import type { Locale } from '@raccolta/contracts';

/** The API's locale for the interface language: Italian when the UI speaks it, else English. */
export function uiLocale(language: string): Locale {
  return language.startsWith('it') ? 'it' : 'en';
}
