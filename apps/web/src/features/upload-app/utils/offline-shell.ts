import { UPLOAD_APP_PATH } from '../../../lib/upload-paths';

/** In step with public/sw.js: the cache it answers from and the key of the app shell in it. */
export const OFFLINE_CACHE = 'raccolta-offline-v1';
export const SHELL_KEY = '/__shell';
export const SERVICE_WORKER_URL = '/sw.js';

/** Files outside /assets/ the shell needs; they change without a new name, so each start refreshes them. */
const STATIC_FILES = [
  '/logo.svg',
  '/manifest.webmanifest',
  '/icon-192.png',
  '/icon-512.png',
  '/icon-maskable-512.png',
  '/apple-touch-icon.png',
];

/** The hashed bundles this page loaded (scripts, styles), by path. */
function loadedAssets(): string[] {
  const paths = performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === window.location.origin && url.pathname.startsWith('/assets/'))
    .map((url) => url.pathname);
  return [...new Set(paths)];
}

/**
 * `fromHttpCache`: a hashed asset the page already loaded is in the browser's HTTP cache (served
 * immutable for a year), so the copy comes from there, not a second time over the network.
 */
async function put(cache: Cache, key: string, url: string, fromHttpCache = false): Promise<void> {
  const response = await fetch(url, {
    cache: fromHttpCache ? 'force-cache' : 'no-store',
    credentials: 'same-origin',
  });
  if (response.ok) await cache.put(key, response);
}

/** Quiet time without a new resource of the page before it counts as ready. */
const QUIET_MS = 1000;
/** The longest wait for quiet: a page that never rests still gets its offline copy. */
const SETTLE_LIMIT_MS = 15_000;

/**
 * Resolves once the page has started: loaded, no new resource for a second (the lazy pages and
 * their first API answers are in), and the browser idle. What only serves later (the offline
 * copy, parts shown after something happened) waits for it rather than compete with the start.
 */
export function whenPageSettled(): Promise<void> {
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
  const quiet = loaded.then(
    () =>
      new Promise<void>((resolve) => {
        const started = performance.now();
        let seen = performance.getEntriesByType('resource').length;
        const check = () => {
          const count = performance.getEntriesByType('resource').length;
          if (count === seen || performance.now() - started > SETTLE_LIMIT_MS) resolve();
          else {
            seen = count;
            window.setTimeout(check, QUIET_MS);
          }
        };
        window.setTimeout(check, QUIET_MS);
      }),
  );
  return quiet.then(
    () =>
      new Promise<void>((resolve) => {
        // Safari has no requestIdleCallback.
        if (typeof window.requestIdleCallback === 'function') {
          window.requestIdleCallback(() => resolve(), { timeout: 2000 });
        } else {
          setTimeout(resolve, 0);
        }
      }),
  );
}

/**
 * Puts what the upload app needs to start offline into the service worker's cache: the page
 * itself (index.html with its CSP), its hashed assets and the icons. The page does it because the
 * worker cannot fetch (see sw.js). Old assets of an earlier build are dropped.
 */
export async function cacheOfflineShell(): Promise<void> {
  const cache = await caches.open(OFFLINE_CACHE);
  const assets = loadedAssets();
  const cachedPaths = new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
  await Promise.allSettled([
    put(cache, SHELL_KEY, UPLOAD_APP_PATH),
    // The query keeps the worker out of the way, so the network answers rather than the cache.
    ...STATIC_FILES.map((path) => put(cache, path, `${path}?refresh=${Date.now()}`)),
    ...assets.filter((path) => !cachedPaths.has(path)).map((path) => put(cache, path, path, true)),
  ]);
  const current = new Set(assets);
  await Promise.all(
    [...cachedPaths]
      .filter((path) => path.startsWith('/assets/') && !current.has(path))
      .map((path) => cache.delete(path)),
  );
}

let registered = false;

/**
 * Once the page has settled, fetches `before` (parts the page shows later, which the offline copy
 * must hold too), registers the service worker (production builds only: in development Vite
 * serves modules that must never be cached) and fills its cache once it is active. Nothing of it
 * competes with the page's start. Failures only cost offline start.
 */
export function registerOfflineShell(
  before: () => Promise<unknown> = () => Promise.resolve(),
): void {
  if (registered || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  registered = true;
  // The copy is made from the page's resource entries: room for all of them (the default keeps
  // 250, fewer than a start of the upload app with its lazy pages may fetch).
  performance.setResourceTimingBufferSize(1000);
  void whenPageSettled()
    .then(() => before().catch(() => undefined))
    .then(() => navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }))
    .then(() => navigator.serviceWorker.ready)
    .then(async (registration) => {
      // Started from the cache without a network: what is cached is what there is.
      if (!navigator.onLine) return;
      await cacheOfflineShell();
      registration.active?.postMessage({ type: 'cache-updated' });
    })
    .catch((error: unknown) => {
      console.warn('The upload app cannot work offline', error);
    });
}
