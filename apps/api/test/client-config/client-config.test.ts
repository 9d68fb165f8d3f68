import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clientConfigResponseSchema } from '@raccolta/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSchema, type OpenApiPaths } from '../helpers/openapi-operations.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const PLAUSIBLE = {
  ANALYTICS_PROVIDER: 'plausible',
  ANALYTICS_SCRIPT_URL: 'https://stats.example.org/js/script.js',
};
const MATOMO = {
  ANALYTICS_PROVIDER: 'matomo',
  ANALYTICS_SCRIPT_URL: 'https://matomo.example.net/analytics/matomo.js',
  ANALYTICS_SITE_ID: '7',
};

/** A built web app of one page, so the server answers client routes with its CSP. */
function fakeWebDist(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'raccolta-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><html><head><script type="module" nonce="__CSP_NONCE__" src="/assets/app.js"></script></head><body></body></html>',
  );
  return dist;
}

/** The directives of a CSP header, by name. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('GET /client-config', () => {
  describe('on the defaults', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server.close());

    it('answers anyone, without a token: no feature flags, no analytics', async () => {
      const res = await server.app.inject('/api/client-config');
      expect(res.statusCode).toBe(200);
      expect(clientConfigResponseSchema.parse(res.json())).toEqual({
        featureFlags: [],
        analytics: null,
      });
    });

    it('is described in the OpenAPI document with its response schema', async () => {
      const doc = (await server.app.inject('/api/openapi.json')).json<
        OpenApiPaths<{
          responses: Record<string, { content: Record<string, { schema: unknown }> }>;
        }>
      >();
      const response = doc.paths['/client-config']?.get?.responses['200'];
      // The answer is the named component ClientConfig.
      const schema = resolveSchema(doc, response?.content['application/json']?.schema);
      expect(JSON.stringify(schema)).toContain('featureFlags');
      expect(JSON.stringify(schema)).toContain('matomo');
    });
  });

  it('answers the configured flags and Plausible settings, the domain defaulting to PUBLIC_URL’s host', async () => {
    const server = await startTestServer({
      FEATURE_FLAGS: 'lang-switcher, query-dev,lang-switcher',
      PUBLIC_URL: 'https://raccolta.example.com',
      ...PLAUSIBLE,
    });
    try {
      const res = await server.app.inject('/api/client-config');
      expect(clientConfigResponseSchema.parse(res.json())).toEqual({
        featureFlags: ['lang-switcher', 'query-dev'],
        analytics: {
          provider: 'plausible',
          scriptUrl: PLAUSIBLE.ANALYTICS_SCRIPT_URL,
          domain: 'raccolta.example.com',
        },
      });
    } finally {
      await server.close();
    }
  });

  it('answers Matomo with its tracker beside its script and the site id', async () => {
    const server = await startTestServer(MATOMO);
    try {
      const res = await server.app.inject('/api/client-config');
      expect(res.json()).toEqual({
        featureFlags: [],
        analytics: {
          provider: 'matomo',
          scriptUrl: MATOMO.ANALYTICS_SCRIPT_URL,
          trackerUrl: 'https://matomo.example.net/analytics/matomo.php',
          siteId: '7',
        },
      });
    } finally {
      await server.close();
    }
  });
});

describe('the web app’s CSP and analytics', () => {
  let dist: string;
  beforeAll(() => {
    dist = fakeWebDist();
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  const cspOf = async (env: Record<string, string>) => {
    const server = await startTestServer({ SERVE_WEB: 'true', WEB_DIST_DIR: dist, ...env });
    try {
      const res = await server.app.inject('/teams');
      expect(res.statusCode).toBe(200);
      return directives(String(res.headers['content-security-policy']));
    } finally {
      await server.close();
    }
  };

  it('allows no foreign origin when analytics is not configured', async () => {
    const csp = await cspOf({});
    for (const name of ['script-src', 'connect-src', 'img-src']) {
      expect(
        csp[name]?.filter((source) => source.startsWith('http')),
        name,
      ).toEqual(name === 'img-src' ? ['http://localhost:3000'] : []);
    }
  });

  it('allows the Plausible origin for its script and events, not for images', async () => {
    const csp = await cspOf(PLAUSIBLE);
    expect(csp['script-src']).toContain('https://stats.example.org');
    expect(csp['connect-src']).toContain('https://stats.example.org');
    expect(csp['img-src']).not.toContain('https://stats.example.org');
    expect(csp['script-src']?.join(' ')).not.toContain('unsafe-inline');
  });

  it('allows the Matomo origin for its script, its tracker and the tracker’s image fallback', async () => {
    const csp = await cspOf(MATOMO);
    for (const name of ['script-src', 'connect-src', 'img-src'])
      expect(csp[name], name).toContain('https://matomo.example.net');
  });
});
