import { UPLOAD_APP_PATH } from './upload-paths';

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

async function put(cache: Cache, key: string, url: string): Promise<void> {
  const response = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
  if (response.ok) await cache.put(key, response);
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
    ...assets.filter((path) => !cachedPaths.has(path)).map((path) => put(cache, path, path)),
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
 * Registers the service worker (production builds only: in development Vite serves modules that
 * must never be cached) and fills its cache once it is active. Failures only cost offline start.
 */
export function registerOfflineShell(): void {
  if (registered || !import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  registered = true;
  navigator.serviceWorker
    .register(SERVICE_WORKER_URL, { scope: '/' })
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
