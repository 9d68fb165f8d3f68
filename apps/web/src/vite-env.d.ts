/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API; defaults to `/api` on the web app's own origin. */
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
