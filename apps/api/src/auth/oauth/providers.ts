import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Config, OidcProviderConfig } from '../../config/config.js';
import type { Clock } from '../../context.js';

/** Scopes asked of the external provider, whatever the web app asked of us. */
const PROVIDER_SCOPE = 'openid email profile';
/** Discovery documents change rarely; re-reading them daily picks up moved endpoints. */
const DISCOVERY_TTL_MS = 24 * 60 * 60_000;

/** What the external provider told us about the person, from its verified ID token or userinfo. */
export interface ProviderProfile {
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
  givenName: string | undefined;
  familyName: string | undefined;
}

/** Per-login secrets we keep for the provider leg of the flow. */
export interface ProviderChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcProviders {
  list(): readonly OidcProviderConfig[];
  find(id: string): OidcProviderConfig | undefined;
  /** Where the provider sends the browser back: the API's own callback for that provider. */
  redirectUri(provider: OidcProviderConfig): string;
  authorizationUrl(
    provider: OidcProviderConfig,
    checks: ProviderChecks,
    uiLocales: string | undefined,
  ): Promise<URL>;
  /**
   * Exchanges the code in `callbackQuery` (the raw query string the provider sent) and returns
   * the profile. Throws openid-client's errors when any check fails.
   */
  fetchProfile(
    provider: OidcProviderConfig,
    callbackQuery: string,
    checks: ProviderChecks,
  ): Promise<ProviderProfile>;
}

export function newProviderChecks(): ProviderChecks {
  return {
    // 32 characters, the spec's state length (openid-client's randomState gives 43).
    state: randomBytes(24).toString('base64url'),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
}

/**
 * The configured providers and their discovered metadata. The discovery cache is configuration,
 * the same in every API process, so keeping it in memory does not tie a login to one process.
 */
export function createOidcProviders(config: Config, clock: Clock): OidcProviders {
  const { providers, allowHttpIssuers } = config.auth;
  const cache = new Map<string, { at: number; configuration: Promise<client.Configuration> }>();

  const redirectUri = (provider: OidcProviderConfig) =>
    `${config.apiPublicUrl}/oauth2/callback/${provider.id}`;

  function configurationOf(provider: OidcProviderConfig): Promise<client.Configuration> {
    const now = clock();
    const cached = cache.get(provider.id);
    if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
    const configuration = discover(provider, allowHttpIssuers);
    cache.set(provider.id, { at: now, configuration });
    // A failed discovery (provider down) must not stick: the next login tries again.
    configuration.catch(() => {
      if (cache.get(provider.id)?.configuration === configuration) cache.delete(provider.id);
    });
    return configuration;
  }

  return {
    list: () => providers,
    find: (id) => providers.find((p) => p.id === id),
    redirectUri,
    async authorizationUrl(provider, checks, uiLocales) {
      const configuration = await configurationOf(provider);
      return client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri(provider),
        scope: PROVIDER_SCOPE,
        response_type: 'code',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
        ...(uiLocales ? { ui_locales: uiLocales } : {}),
      });
    },
    async fetchProfile(provider, callbackQuery, checks) {
      const configuration = await configurationOf(provider);
      // openid-client sends the callback URL without its query as the token request's
      // redirect_uri, so it must be the public one the provider knows, not the address we listen on.
      const currentUrl = new URL(redirectUri(provider));
      currentUrl.search = callbackQuery;
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the provider sent no ID token');
      let claims: Record<string, unknown> = idClaims;
      // Providers that follow OIDC Core §5.4 strictly put e-mail and names only in userinfo.
      if (idClaims.email === undefined) {
        const userInfo = await client.fetchUserInfo(
          configuration,
          tokens.access_token,
          idClaims.sub,
        );
        claims = { ...userInfo, ...idClaims };
      }
      return {
        subject: idClaims.sub,
        email: text(claims.email),
        // Some providers send the boolean as a string.
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        name: text(claims.name),
        givenName: text(claims.given_name),
        familyName: text(claims.family_name),
      };
    },
  };
}

async function discover(
  provider: OidcProviderConfig,
  allowHttp: boolean,
): Promise<client.Configuration> {
  return client.discovery(
    new URL(provider.issuer),
    provider.clientId,
    undefined,
    clientSecretAuth(provider.clientSecret),
    // Only for local providers in tests and development (OIDC_ALLOW_HTTP); openid-client marks
    // the switch deprecated so that it stands out, not because it is going away.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
  );
}

/**
 * The client secret sent the way the provider's metadata says it accepts: HTTP Basic when listed
 * (RFC 8414: also when nothing is listed), else in the body. Chosen per request, from the
 * metadata of the discovery this configuration came from.
 */
function clientSecretAuth(secret: string): client.ClientAuth {
  const basic = client.ClientSecretBasic(secret);
  const post = client.ClientSecretPost(secret);
  return (server, metadata, body, headers) => {
    const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const auth = methods.includes('client_secret_basic') ? basic : post;
    auth(server, metadata, body, headers);
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
