// A real OpenID Provider (oidc-provider) on a local port that signs the configured person in
// without any form: the tests and the e2e run drive the whole browser flow against it.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type InteractionResult } from 'oidc-provider';

export interface TestUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

export const TEST_USER: TestUser = {
  sub: 'user-123',
  email: 'alice@example.test',
  email_verified: true,
  name: 'Alice Example',
  given_name: 'Alice',
  family_name: 'Example',
};

export interface TestProviderOptions {
  redirectUris: string[];
  /** 0 (the default) picks a free port. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  user?: TestUser;
  /** true: e-mail and names only from userinfo (OIDC Core §5.4); false: in the ID token, like Google. */
  conformIdTokenClaims?: boolean;
}

export interface SeenInteraction {
  prompt: string;
  uiLocales: unknown;
  scope: unknown;
}

export interface TestProvider {
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
  /** What the provider was asked at each interaction, oldest first. */
  interactions: SeenInteraction[];
  /** The person signed in at the next interactions. */
  setUser(user: TestUser): void;
  /** The next interaction ends with this error (e.g. the person cancelled) instead of a login. */
  refuseNext(error: { error: string; error_description?: string }): void;
  close(): Promise<void>;
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const clientId = options.clientId ?? 'raccolta-test';
  const clientSecret = options.clientSecret ?? `secret-${randomBytes(16).toString('hex')}`;
  // The issuer names the port, so the port must be bound before the provider exists.
  const server = http.createServer();
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };

  const accounts = new Map<string, TestUser>();
  let current = options.user ?? TEST_USER;
  accounts.set(current.sub, current);
  let refusal: InteractionResult | undefined;
  const interactions: SeenInteraction[] = [];

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: ['openid', 'email', 'profile'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    conformIdTokenClaims: options.conformIdTokenClaims ?? false,
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    // Confidential clients are not made to use PKCE by default; ours always does.
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const user = accounts.get(sub);
      return Promise.resolve(
        user && { accountId: sub, claims: () => Promise.resolve({ ...user }) },
      );
    },
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
      return Promise.resolve();
    },
  });
  const handle = provider.callback();

  // Logs the current person in and grants consent in one step, as a person clicking would.
  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const details = await provider.interactionDetails(req, res);
      const { prompt, params } = details;
      interactions.push({ prompt: prompt.name, uiLocales: params.ui_locales, scope: params.scope });
      if (refusal) {
        const result = refusal;
        refusal = undefined;
        await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
        return;
      }
      const accountId = details.session?.accountId ?? current.sub;
      const grant =
        (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
        new provider.Grant({ accountId, clientId: String(params.client_id) });
      grant.addOIDCScope(String(params.scope));
      if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
      const result: InteractionResult = { consent: { grantId: await grant.save() } };
      if (prompt.name === 'login') result.login = { accountId };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (err) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'interaction_failed', message: String(err) }));
    }
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && /^\/interaction\/[^/?]+(\?.*)?$/.test(req.url ?? '')) {
      void interaction(req, res);
      return;
    }
    handle(req, res);
  });

  return {
    issuer,
    port,
    clientId,
    clientSecret,
    interactions,
    setUser(user) {
      accounts.set(user.sub, user);
      current = user;
    },
    refuseNext(error) {
      refusal = error;
    },
    async close() {
      // fetch keeps connections alive; they would hold close() open.
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
