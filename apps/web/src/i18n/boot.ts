import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { baseOptions, syncDocumentLanguage } from './options';

/**
 * Each language's texts are a chunk of their own, downloaded when that language is needed: the
 * visitor's at start, the other one if the language switcher asks for it. Half the texts stay
 * off every first page.
 */
const localeChunks: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const chunk = language === 'it' ? import('./locales/it.json') : import('./locales/en.json');
    chunk.then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

i18next.on('languageChanged', syncDocumentLanguage);

/**
 * The app's i18next, resolved once the visitor's texts have arrived; main.tsx renders after it.
 * Without a fallback language, so an Italian visitor does not download the English texts too:
 * locales.test.ts keeps every key in both languages, non-empty.
 */
export const i18nReady: Promise<unknown> = i18next
  .use(localeChunks)
  .use(initReactI18next)
  .init({ ...baseOptions(), fallbackLng: false, load: 'languageOnly' });
