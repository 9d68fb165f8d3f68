/* global self, caches */
// Raccolta's service worker: lets the installed upload app (/upload) start without a connection.
// Registered by the upload app in production builds only (src/features/upload-app/utils/offline-shell.ts,
// which must use the same cache name and shell key).
//
// The API sends this script with `Content-Security-Policy: default-src 'none'`, which a browser
// applies to the worker itself: fetch() from here is refused. So the worker never fetches:
//   - navigations are network-first through navigation preload (the browser's own request, which
//     that policy does not cover); the answer is kept as the offline shell, and without a network
//     the last kept shell answers;
//   - the page puts the app shell, its hashed assets and the icons into the cache (its own policy
//     allows 'self'), and the worker answers those from the cache (assets are immutable);
//   - nothing under /api/ is ever answered or kept here.
const CACHE = 'raccolta-offline-v1';
const SHELL_KEY = '/__shell';

/** Paths (same origin) the cache holds, so the fetch handler can decide synchronously. */
let cached = new Set();

async function readIndex() {
  const cache = await caches.open(CACHE);
  const keys = await cache.keys();
  cached = new Set(keys.map((request) => new URL(request.url).pathname));
}

const indexed = readIndex().catch(() => undefined);

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith('raccolta-') && name !== CACHE)
          .map((name) => caches.delete(name)),
      );
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

// The page tells the worker when it has put new entries into the cache.
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'cache-updated') event.waitUntil(readIndex());
});

function isApi(pathname) {
  return pathname === '/api' || pathname.startsWith('/api/');
}

async function fromShell() {
  await indexed;
  const shell = await caches.match(SHELL_KEY, { cacheName: CACHE, ignoreVary: true });
  return shell || Response.error();
}

async function navigate(event) {
  try {
    // Without navigation preload (an older browser) the worker has to ask itself; under the
    // API's policy that fails and the kept shell answers.
    const response = (await event.preloadResponse) || (await fetch(event.request));
    const type = response.headers.get('Content-Type') || '';
    if (response.ok && type.startsWith('text/html')) {
      const cache = await caches.open(CACHE);
      await cache.put(SHELL_KEY, response.clone());
      cached.add(SHELL_KEY);
    }
    return response;
  } catch {
    return fromShell();
  }
}

async function fromCache(request) {
  const hit = await caches.match(request, { cacheName: CACHE, ignoreVary: true });
  return hit || fetch(request);
}

/** An API navigation (a download link) as it came: never kept, never answered from the cache. */
async function passThrough(event) {
  return (await event.preloadResponse) || fetch(event.request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isApi(url.pathname)) {
    // The preload request is already on its way: use it rather than ask a second time.
    if (request.mode === 'navigate' && self.registration.navigationPreload) {
      event.respondWith(passThrough(event));
    }
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(navigate(event));
    return;
  }
  // Only what the page has cached; anything else goes to the network as if there were no worker.
  if (cached.has(url.pathname) && url.search === '') event.respondWith(fromCache(request));
});
