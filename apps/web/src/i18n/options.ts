import type { InitOptions } from 'i18next';
import {
  browserLanguages,
  DEFAULT_LANGUAGE,
  detectLanguage,
  SUPPORTED_LANGUAGES,
} from './detect-language';

export function syncDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

/** What the app's and the tests' i18next have in common. */
export function baseOptions(): InitOptions {
  return {
    lng: detectLanguage(browserLanguages(navigator)),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: SUPPORTED_LANGUAGES,
    // React already escapes what it renders.
    interpolation: { escapeValue: false },
    // Keeps the console clean for users and for the e2e check that the console has no noise.
    showSupportNotice: false,
  };
}
