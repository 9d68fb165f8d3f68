import i18next, { type BackendModule, type ResourceLanguage } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { setAllTextsLoader } from './all-texts';
import type { Language } from './detect-language';
import { baseOptions, syncDocumentLanguage } from './options';
import type { TextPart } from './text-parts';

type Texts = ResourceLanguage;

/**
 * Each language's texts are two chunks (src/i18n/text-parts.ts): the sections the first page
 * needs, downloaded before the first render, and the rest, downloaded with the first other page.
 * The other language arrives only if the language switcher asks for it.
 */
const chunks: Record<Language, Record<TextPart, () => Promise<{ default: unknown }>>> = {
  en: {
    first: () => import('./locales/en.json?texts=first'),
    rest: () => import('./locales/en.json?texts=rest'),
  },
  it: {
    first: () => import('./locales/it.json?texts=first'),
    rest: () => import('./locales/it.json?texts=rest'),
  },
};
const texts = (language: string, part: TextPart): Promise<Texts> =>
  chunks[language === 'it' ? 'it' : 'en'][part]().then((module) => module.default as Texts);

/** Once a page has asked for every text, a language loaded later comes whole. */
let everything = false;
const whole = new Map<string, Promise<void>>();

const localeChunks: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const parts = everything
      ? Promise.all([texts(language, 'first'), texts(language, 'rest')]).then(([first, rest]) => {
          whole.set(language, Promise.resolve());
          return { ...first, ...rest };
        })
      : texts(language, 'first');
    parts.then(
      (loaded) => callback(null, loaded),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

function loadRest(language: string): Promise<void> {
  let loading = whole.get(language);
  if (loading === undefined) {
    loading = texts(language, 'rest').then(
      (rest) => {
        // Deep-merged into what is there; components re-render on 'added' (bindI18nStore).
        i18next.addResourceBundle(language, 'translation', rest, true, false);
      },
      (error: unknown) => {
        // A chunk that did not arrive (a dropped connection) is asked for again next time.
        whole.delete(language);
        throw error;
      },
    );
    whole.set(language, loading);
  }
  return loading;
}

i18next.on('languageChanged', (language) => {
  syncDocumentLanguage(language);
  // A language whose first part came earlier (the switcher, on the landing page) gets its rest
  // once pages need it: pages already loaded do not ask again.
  if (everything) loadRest(language).catch(() => undefined);
});

/**
 * The app's i18next, resolved once the visitor's first texts have arrived; main.tsx renders after
 * it. Without a fallback language, so an Italian visitor does not download the English texts too:
 * locales.test.ts keeps every key in both languages, non-empty.
 */
export const i18nReady: Promise<unknown> = i18next
  .use(localeChunks)
  .use(initReactI18next)
  .init({
    ...baseOptions(),
    fallbackLng: false,
    load: 'languageOnly',
    react: { bindI18nStore: 'added' },
  });

// Asked for before i18next has its language (the router starts the first page as the app
// starts): once it has, with the first part, or at once with both when `everything` came first.
setAllTextsLoader(() => {
  everything = true;
  return i18nReady.then(() => loadRest(i18next.resolvedLanguage ?? i18next.language));
});
