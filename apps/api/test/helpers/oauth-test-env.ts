import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { startTestProvider, type TestProvider, type TestProviderOptions } from './oidc-provider.js';
import { startTestServer, type TestServer } from './test-server.js';
import { createUserAgent, type UserAgent } from './user-agent.js';

/** The web app's origin in these tests; the browser never has to load it. */
export const WEB_ORIGIN = 'http://localhost:3000';
export const WEB_CALLBACK = `${WEB_ORIGIN}/auth/callback`;

export interface OAuthTestEnv {
  op: TestProvider;
  server: TestServer;
  /** e.g. http://127.0.0.1:PORT/api, where the app listens for real. */
  apiBase: string;
  /** Moves the app's clock (not the provider's) by `ms`. */
  advanceClock(ms: number): void;
  /** A PKCE pair and state as the web app makes them (verifier 128, state 32 characters). */
  newAttempt(): Attempt;
  authorizeUrl(attempt: Attempt, params?: Record<string, string | null>): string;
  /** The whole browser round trip, stopping where the browser would load the web app. */
  signIn(attempt?: Attempt, ua?: UserAgent): Promise<SignInResult>;
  /** POST /oauth2/token as the web app sends it. */
  exchange(body: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export interface Attempt {
  verifier: string;
  challenge: string;
  state: string;
}

export interface SignInResult {
  /** The web app's /auth/callback URL with its query. */
  url: URL;
  hops: string[];
  attempt: Attempt;
  ua: UserAgent;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/**
 * A real provider and the real app listening on a real port, since the provider sends the browser
 * to the API's callback over HTTP. `env` adds or overrides settings.
 */
export async function startOAuthTestEnv(
  env: Record<string, string> = {},
  provider: Pick<TestProviderOptions, 'conformIdTokenClaims' | 'user'> = {},
): Promise<OAuthTestEnv> {
  const port = await freePort();
  const apiBase = `http://127.0.0.1:${port}/api`;
  const op = await startTestProvider({
    ...provider,
    redirectUris: [`${apiBase}/oauth2/callback/google`],
  });
  let offset = 0;
  const server = await startTestServer(
    {
      PORT: String(port),
      PUBLIC_URL: WEB_ORIGIN,
      API_PUBLIC_URL: apiBase,
      OIDC_GOOGLE_ISSUER: op.issuer,
      OIDC_GOOGLE_CLIENT_ID: op.clientId,
      OIDC_GOOGLE_CLIENT_SECRET: op.clientSecret,
      OIDC_ALLOW_HTTP: 'true',
      ...env,
    },
    { clock: () => Date.now() + offset },
  );
  await server.app.listen({ port, host: '127.0.0.1' });

  const newAttempt = (): Attempt => {
    const verifier = randomBytes(96).toString('base64url');
    return {
      verifier,
      challenge: createHash('sha256').update(verifier).digest('base64url'),
      state: randomBytes(24).toString('base64url'),
    };
  };

  const authorizeUrl = (attempt: Attempt, params: Record<string, string | null> = {}) => {
    const url = new URL(`${apiBase}/oauth2/authorize`);
    const all: Record<string, string | null> = {
      identity_provider: 'google',
      client_id: 'raccolta-web',
      response_type: 'code',
      redirect_uri: WEB_CALLBACK,
      scope: 'email openid profile',
      state: attempt.state,
      code_challenge: attempt.challenge,
      code_challenge_method: 'S256',
      ui_locales: 'it',
      ...params,
    };
    for (const [key, value] of Object.entries(all)) {
      if (value !== null) url.searchParams.set(key, value);
    }
    return url.href;
  };

  return {
    op,
    server,
    apiBase,
    advanceClock(ms) {
      offset += ms;
    },
    newAttempt,
    authorizeUrl,
    async signIn(attempt = newAttempt(), ua = createUserAgent()) {
      const { url, hops } = await ua.follow(authorizeUrl(attempt), { stopAt: WEB_ORIGIN });
      return { url: new URL(url), hops, attempt, ua };
    },
    exchange(body) {
      return fetch(`${apiBase}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    },
    async close() {
      await server.close();
      await op.close();
    },
  };
}
