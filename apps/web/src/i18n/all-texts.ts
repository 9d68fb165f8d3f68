/**
 * The app starts with the texts of its first page only (i18n/boot.ts); every other page waits for
 * `loadAllTexts()` before it renders (app/page-needs.ts). Whoever sets up i18next says how to get
 * them: boot.ts downloads them, index.ts (the tests, every text bundled) has nothing to do. A
 * page asked for before that (the router starts the first page's code while i18next starts) waits
 * for it.
 */
let loader: (() => Promise<void>) | null = null;
let announce: () => void = () => undefined;
const registered = new Promise<void>((resolve) => {
  announce = resolve;
});

export function setAllTextsLoader(load: () => Promise<void>): void {
  loader = load;
  announce();
}

export function loadAllTexts(): Promise<void> {
  if (loader !== null) return loader();
  return registered.then(() => loader?.());
}
