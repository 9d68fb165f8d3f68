/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API; defaults to `/api` on the web app's own origin. */
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** One part of a language's texts, cut by the build (vite.config.ts, src/i18n/text-parts.ts). */
declare module '*.json?texts=first' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*.json?texts=rest' {
  const texts: Record<string, unknown>;
  export default texts;
}
