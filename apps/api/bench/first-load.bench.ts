// First load of the web app in Chromium, on localhost, from a cold cache: the bytes each route
// downloads (scripts, styles and the page, each counted gzipped at level 9) against the whole
// app's bytes measured in the same run (what every page downloaded before the split by route),
// and the landing page's largest contentful paint against a bare HTML page with the same heading
// served by a bare Node server in the same run. Goals: the landing page at most 200 KB gzipped,
// its largest paint under 1 s.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startSession } from '../src/auth/sessions.js';
import { loadConfig } from '../src/config/config.js';
import { newId } from '../src/db/ids.js';
import { createServer } from '../src/server.js';
import { createTeam, createUser } from '../test/helpers/factories.js';
import { createTestDatabase } from '../test/helpers/test-db.js';

const root = path.resolve(import.meta.dirname, '../../..');
const distDir = path.join(root, 'apps/web/dist');
const LCP_RUNS = 7;
/** First visits on the phone link of each throttled route (median). */
const PHONE_RUNS = 5;
/** A phone link: 150 ms round trip, 6.4 Mbit/s each way (Chromium's network emulation). */
export const PHONE_LINK = {
  offline: false,
  latency: 150,
  downloadThroughput: (6.4 * 1_000_000) / 8,
  uploadThroughput: (6.4 * 1_000_000) / 8,
};
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export interface FirstLoadRow {
  name: string;
  ms: number;
  ratio: number;
  unit?: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const gzipped = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length;

/** Every script and style the build produced, gzipped one by one: the whole app. */
function wholeAppBytes(): number {
  const assets = path.join(distDir, 'assets');
  let total = gzipped(readFileSync(path.join(distDir, 'index.html')));
  for (const name of readdirSync(assets))
    if (/\.(js|css)$/.test(name)) total += gzipped(readFileSync(path.join(assets, name)));
  return total;
}

/** The gzipped bytes of the page, scripts and styles a fresh visitor of `url` downloads. */
async function routeBytes(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  const sizes = new Map<string, Promise<number>>();
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'document' && type !== 'script' && type !== 'stylesheet') return;
    sizes.set(
      response.url(),
      response.body().then(gzipped, () => 0),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator('main h1, main h2').first().waitFor();
  await page.waitForLoadState('networkidle');
  // A redirect (to sign-in, to 404) would measure another page.
  if (new URL(page.url()).pathname !== new URL(url).pathname)
    throw new Error(`${url} went to ${page.url()}`);
  const total = (await Promise.all(sizes.values())).reduce((sum, size) => sum + size, 0);
  await page.close();
  return total;
}

/** The largest contentful paint of a fresh visit, in milliseconds after navigation start. */
async function largestPaint(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  // Evaluated in the page, written as text: the API's TypeScript has no DOM types.
  const lcp = Number(
    await page.evaluate(`new Promise((resolve) => {
      new PerformanceObserver((list) => {
        const entries = list.getEntries();
        if (entries.length > 0) resolve(entries[entries.length - 1].startTime);
      }).observe({ type: 'largest-contentful-paint', buffered: true });
    })`),
  );
  await context.close();
  return lcp;
}

/**
 * A first visit (empty cache, no service worker yet) on the phone link: milliseconds from the
 * navigation's start until a link of the list named `listName` shows, the moment a person sees
 * their collections. Also the bytes the page received by then and by the time the network is
 * idle (the service worker's offline copy included), uncompressed as the page counts them.
 */
async function phoneVisit(
  context: BrowserContext,
  url: string,
  listName: string,
): Promise<{ ms: number; requests: number; idleRequests: number }> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', PHONE_LINK);
  let requests = 0;
  page.on('request', () => {
    requests += 1;
  });
  await page.goto(url, { waitUntil: 'commit' });
  // Runs in the page; the API's TypeScript has no DOM types, so the few used are named here.
  interface Element {
    getAttribute(name: string): string | null;
    querySelector(selector: string): Element | null;
  }
  interface PageGlobals {
    document: { querySelectorAll(selector: string): Iterable<Element> };
    performance: { now(): number };
  }
  const shown = await page.waitForFunction(
    (name: string) => {
      const { document, performance } = globalThis as unknown as PageGlobals;
      const list = [...document.querySelectorAll('ul[aria-label]')].find(
        (element) => element.getAttribute('aria-label') === name,
      );
      return list?.querySelector('a') ? performance.now() : false;
    },
    listName,
    { polling: 'raf', timeout: 60_000 },
  );
  const ms = Number(await shown.jsonValue());
  const atShow = requests;
  await page.waitForLoadState('networkidle');
  // Whatever the page does once ready (the offline copy) runs after idle: give it time to finish.
  await page.waitForTimeout(3000);
  await page.waitForLoadState('networkidle');
  if (new URL(page.url()).pathname !== new URL(url).pathname)
    throw new Error(`${url} went to ${page.url()}`);
  const idle = requests;
  await page.close();
  return { ms, requests: atShow, idleRequests: idle };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

interface BenchWorld {
  browser: Browser;
  base: string;
  bareUrl: string;
  teamId: string;
  collectionId: string;
  /** A fresh browser context with the owner's session in localStorage. */
  signedIn: () => Promise<BrowserContext>;
}

/** The built app served with the API on 127.0.0.1, an owner with a team and one collection. */
async function withWorld<T>(run: (world: BenchWorld) => Promise<T>): Promise<T> {
  const build = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('the web app did not build');

  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'raccolta-bench-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '1000000',
  });
  config.database = database.config;
  const server = await createServer(config, { worker: false });
  const { ctx, app } = server;
  // The same heading as the landing page, with nothing else: the paint a browser cannot beat.
  const locale = readFileSync(path.join(root, 'apps/web/src/i18n/locales/en.json'), 'utf8');
  const title = (JSON.parse(locale) as { landing: { title: string } }).landing.title;
  const bare = createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Raccolta</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:sans-serif;text-align:center"><h1>${title}</h1></body></html>`);
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await listen(bare);

    const owner = await createUser(ctx, { email: 'bench@example.com', nickname: 'Bench' });
    const team = await createTeam(ctx, { owner, name: 'Bench team' });
    const collectionId = newId();
    const now = Date.now();
    await ctx.db
      .insertInto('collections')
      .values({
        id: collectionId,
        team_id: team.id,
        name: 'Bench photos',
        description: null,
        mode: 'collaborative',
        status: 'ready',
        files_count: 0,
        created_at: now,
        created_by: owner.id,
        updated_at: now,
        updated_by: owner.id,
      })
      .execute();
    const tokens = await startSession(ctx, owner, { identityProvider: false });
    const signedIn = async () => {
      const context = await browser.newContext();
      // Spec §3: the session lives in localStorage under these names.
      const expiresAt = Date.now() + tokens.ExpiresIn * 1000;
      await context.addInitScript(`
        localStorage.setItem('IDToken', ${JSON.stringify(tokens.IdToken)});
        localStorage.setItem('TokenType', ${JSON.stringify(tokens.TokenType)});
        localStorage.setItem('AccessToken', ${JSON.stringify(tokens.AccessToken)});
        localStorage.setItem('RefreshToken', ${JSON.stringify(tokens.RefreshToken ?? '')});
        localStorage.setItem('ExpiresAt', '${expiresAt}');
        localStorage.setItem('IdentityProvider', 'false');
      `);
      return context;
    };
    return await run({ browser, base, bareUrl, teamId: team.id, collectionId, signedIn });
  } finally {
    await browser.close();
    await new Promise((resolve) => bare.close(resolve));
    await server.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function benchFirstLoad(): Promise<FirstLoadRow[]> {
  return withWorld(async ({ browser, base, bareUrl, teamId, collectionId, signedIn }) => {
    const whole = wholeAppBytes();
    const routes: { name: string; url: string; session: boolean }[] = [
      { name: 'landing page /', url: '/', session: false },
      { name: 'sign-in /auth/signin', url: '/auth/signin', session: false },
      { name: 'profile /profile', url: '/profile', session: true },
      { name: 'team dashboard', url: `/teams/${teamId}`, session: true },
      {
        name: 'collection files',
        url: `/teams/${teamId}/collections/${collectionId}`,
        session: true,
      },
    ];
    const rows: FirstLoadRow[] = [
      { name: 'whole app (baseline)', ms: whole / 1024, ratio: 1, unit: 'KB' },
    ];
    for (const route of routes) {
      const context = route.session ? await signedIn() : await browser.newContext();
      const bytes = await routeBytes(context, `${base}${route.url}`);
      await context.close();
      rows.push({ name: route.name, ms: bytes / 1024, ratio: bytes / whole, unit: 'KB' });
    }

    const appPaints: number[] = [];
    const barePaints: number[] = [];
    // Alternated, so both see the same machine load.
    for (let i = 0; i < LCP_RUNS; i += 1) {
      barePaints.push(await largestPaint(browser, bareUrl));
      appPaints.push(await largestPaint(browser, `${base}/`));
    }
    const bareLcp = median(barePaints);
    const appLcp = median(appPaints);
    rows.push({ name: 'largest paint: bare HTML page (baseline)', ms: bareLcp, ratio: 1 });
    rows.push({ name: 'largest paint: landing page', ms: appLcp, ratio: appLcp / bareLcp });
    return rows;
  });
}

/**
 * First visits on a phone link (PHONE_LINK): the time until the collections show in the upload
 * app and on the team dashboard, against their goals (3 s and 2.5 s), with the requests made by
 * then and by the time the network is idle (the offline copy of the upload app comes after).
 */
export function benchPhoneLink(): Promise<FirstLoadRow[]> {
  return withWorld(async ({ base, teamId, signedIn }) => {
    const rows: FirstLoadRow[] = [];
    const phoneRoutes = [
      { name: 'upload app collections', url: `/upload/teams/${teamId}`, goal: 3000 },
      { name: 'team dashboard', url: `/teams/${teamId}`, goal: 2500 },
    ];
    for (const route of phoneRoutes) {
      const times: number[] = [];
      const counts: number[] = [];
      const idleCounts: number[] = [];
      for (let i = 0; i < PHONE_RUNS; i += 1) {
        const context = await signedIn();
        const visit = await phoneVisit(context, `${base}${route.url}`, 'Collections');
        await context.close();
        times.push(visit.ms);
        counts.push(visit.requests);
        idleCounts.push(visit.idleRequests);
      }
      const ms = median(times);
      rows.push({
        name: `${route.name}: shown (goal ${route.goal} ms)`,
        ms,
        ratio: ms / route.goal,
      });
      rows.push({
        name: `${route.name}: requests when shown`,
        ms: median(counts),
        ratio: 1,
        unit: '#',
      });
      rows.push({
        name: `${route.name}: requests by idle`,
        ms: median(idleCounts),
        ratio: median(idleCounts) / median(counts),
        unit: '#',
      });
    }
    return rows;
  });
}
