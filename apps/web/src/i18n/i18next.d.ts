import 'i18next';
import type en from './locales/en.json';

// Typed keys: a missing English text is a compile error, and `t` suggests the groups.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
