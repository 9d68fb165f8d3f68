import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  browserLanguages,
  DEFAULT_LANGUAGE,
  detectLanguage,
  SUPPORTED_LANGUAGES,
} from './detect-language';
import en from './locales/en.json';
import it from './locales/it.json';

export const resources = { en: { translation: en }, it: { translation: it } } as const;

function syncDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

i18next.on('languageChanged', syncDocumentLanguage);

void i18next.use(initReactI18next).init({
  resources,
  lng: detectLanguage(browserLanguages(navigator)),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: SUPPORTED_LANGUAGES,
  // Resources are bundled, so initialising synchronously lets the first render be translated.
  initAsync: false,
  // React already escapes what it renders.
  interpolation: { escapeValue: false },
  // Keeps the console clean for users and for the e2e check that the console has no noise.
  showSupportNotice: false,
});

export { i18next as i18n };
export { SUPPORTED_LANGUAGES, type Language } from './detect-language';
