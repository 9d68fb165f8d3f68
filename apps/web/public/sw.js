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
//   - nothing under /api/ is ever answered or kept here;
//   - a share from the phone's share sheet (the manifest's share_target: POST /upload/share,
//     multipart) is taken here: its files wait in a cache of their own under a new share id
//     (src/features/upload-app/utils/shared-files.ts reads them, with the same names), and the
//     answer is a 303 to /upload/share?id=<id>, where the page asks which collection.
const CACHE = 'raccolta-offline-v1';
const SHELL_KEY = '/__shell';
const SHARE_CACHE = 'raccolta-share-v1';
const SHARE_PREFIX = '/__share/';
const SHARE_ACTION = '/upload/share';
/** Shares nobody came back for are dropped after a day. */
const SHARE_TTL_MS = 24 * 60 * 60 * 1000;

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
          .filter((name) => name.startsWith('raccolta-') && name !== CACHE && name !== SHARE_CACHE)
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

/** Forgets the shares older than SHARE_TTL_MS (their files with them). */
async function dropOldShares(cache, now) {
  const keys = await cache.keys();
  const old = new Set();
  for (const request of keys) {
    const path = new URL(request.url).pathname;
    const id = path.slice(SHARE_PREFIX.length).split('/')[0];
    const created = Number(id.split('-')[0]);
    if (!Number.isFinite(created) || now - created > SHARE_TTL_MS) old.add(request);
  }
  await Promise.all([...old].map((request) => cache.delete(request)));
}

/** Keeps the shared files under a new share id and sends the app to the page that queues them. */
async function receiveShare(request) {
  const target = new URL(SHARE_ACTION, self.location.origin);
  let form;
  try {
    form = await request.formData();
  } catch {
    target.searchParams.set('id', 'invalid');
    return Response.redirect(target.href, 303);
  }
  const now = Date.now();
  // The time first, so old shares are recognised; the rest unguessable and unique.
  const id = `${now}-${self.crypto.randomUUID()}`;
  const cache = await caches.open(SHARE_CACHE);
  await dropOldShares(cache, now).catch(() => undefined);
  const files = form.getAll('files').filter((value) => typeof value !== 'string');
  await Promise.all(
    files.map((file, index) =>
      cache.put(
        `${SHARE_PREFIX}${id}/${index}`,
        new Response(file, {
          headers: {
            'Content-Type': file.type || 'application/octet-stream',
            'X-File-Name': encodeURIComponent(file.name),
            'X-Last-Modified': String(file.lastModified || now),
          },
        }),
      ),
    ),
  );
  target.searchParams.set('id', id);
  return Response.redirect(target.href, 303);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST' && url.pathname === SHARE_ACTION) {
    event.respondWith(receiveShare(request));
    return;
  }
  if (request.method !== 'GET') return;
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
