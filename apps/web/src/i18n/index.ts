import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import it from './locales/it.json';
import { setAllTextsLoader } from './all-texts';
import { baseOptions, syncDocumentLanguage } from './options';

/**
 * Both languages' texts, bundled, and i18next ready as soon as this module is imported: what the
 * tests use. The app itself starts from `./boot`, which downloads only the visitor's language.
 */
export const resources = { en: { translation: en }, it: { translation: it } } as const;

i18next.on('languageChanged', syncDocumentLanguage);

void i18next.use(initReactI18next).init({
  ...baseOptions(),
  resources,
  // Resources are bundled, so initialising synchronously lets the first render be translated.
  initAsync: false,
});

// Every text is here already: pages have none to wait for.
setAllTextsLoader(() => Promise.resolve());

export { i18next as i18n };
export { SUPPORTED_LANGUAGES, type Language } from './detect-language';
