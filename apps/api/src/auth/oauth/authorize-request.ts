import {
  DEFAULT_LOCALE,
  LOCALES,
  OAUTH_CODE_CHALLENGE_METHOD,
  OAUTH_RESPONSE_TYPE,
  type Locale,
} from '@raccolta/contracts';

/** The only client of the API's authorization endpoint: the web app. */
export const OAUTH_CLIENT_ID = 'raccolta-web';

/** base64url of a SHA-256 digest: exactly 43 characters (RFC 7636 §4.2). */
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const STATE_MAX_LENGTH = 512;
/** Space-separated BCP 47 tags; anything else is not passed on to the provider. */
const UI_LOCALES = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*( [A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)*$/;
const UI_LOCALES_MAX_LENGTH = 100;

export interface AuthorizeQuery {
  identity_provider?: string | undefined;
  client_id?: string | undefined;
  response_type?: string | undefined;
  redirect_uri?: string | undefined;
  scope?: string | undefined;
  state?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
  ui_locales?: string | undefined;
}

export interface AuthorizeRequest {
  providerId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  uiLocales: string | undefined;
  locale: Locale;
}

/** An error sent back to the client's redirect URI, as RFC 6749 §4.1.2.1 describes. */
export interface RedirectedError {
  redirectUri: string;
  state: string | undefined;
  error: string;
  description: string;
}

export type AuthorizeCheck =
  /** Nowhere safe to send the browser: answered in place, never redirected. */
  | { kind: 'refused'; message: string }
  | ({ kind: 'redirected-error' } & RedirectedError)
  | { kind: 'valid'; request: AuthorizeRequest };

export interface AuthorizeRules {
  redirectUris: readonly string[];
  providerIds: readonly string[];
}

/**
 * Checks the web app's authorization request. The redirect URI and the client are checked first:
 * until both are known good, an error must not be sent anywhere the request names.
 */
export function checkAuthorizeRequest(
  query: AuthorizeQuery,
  rules: AuthorizeRules,
): AuthorizeCheck {
  const redirectUri = query.redirect_uri;
  if (!redirectUri || !rules.redirectUris.includes(redirectUri)) {
    return { kind: 'refused', message: 'redirect_uri is not on the list of allowed redirect URLs' };
  }
  if (query.client_id !== OAUTH_CLIENT_ID) {
    return { kind: 'refused', message: 'Unknown client_id' };
  }
  const fail = (error: string, description: string, echoState = true): AuthorizeCheck => ({
    kind: 'redirected-error',
    redirectUri,
    state: echoState ? query.state : undefined,
    error,
    description,
  });
  const { state } = query;
  if (!state) return fail('invalid_request', 'state is required');
  // Echoing an oversized state would hand the client back what it should not have sent.
  if (state.length > STATE_MAX_LENGTH) {
    return fail('invalid_request', `state must be at most ${STATE_MAX_LENGTH} characters`, false);
  }
  if (query.response_type !== OAUTH_RESPONSE_TYPE) {
    return fail('unsupported_response_type', 'response_type must be code');
  }
  if (!(query.scope ?? '').split(' ').includes('openid')) {
    return fail('invalid_scope', 'scope must include openid');
  }
  if (query.code_challenge_method !== OAUTH_CODE_CHALLENGE_METHOD) {
    return fail('invalid_request', 'code_challenge_method must be S256');
  }
  if (!query.code_challenge || !CODE_CHALLENGE.test(query.code_challenge)) {
    return fail('invalid_request', 'code_challenge must be 43 base64url characters');
  }
  const providerId = query.identity_provider;
  if (!providerId || !rules.providerIds.includes(providerId)) {
    return fail('invalid_request', 'Unknown identity provider');
  }
  const uiLocales =
    query.ui_locales &&
    query.ui_locales.length <= UI_LOCALES_MAX_LENGTH &&
    UI_LOCALES.test(query.ui_locales)
      ? query.ui_locales
      : undefined;
  return {
    kind: 'valid',
    request: {
      providerId,
      redirectUri,
      state,
      codeChallenge: query.code_challenge,
      uiLocales,
      locale: localeFrom(uiLocales),
    },
  };
}

/** The first requested language the app speaks, else the default. */
export function localeFrom(uiLocales: string | undefined): Locale {
  for (const tag of (uiLocales ?? '').split(' ')) {
    const language = tag.split('-')[0]?.toLowerCase();
    const known = LOCALES.find((l) => l === language);
    if (known) return known;
  }
  return DEFAULT_LOCALE;
}

/** The client's redirect URI with the answer's parameters added (RFC 6749 §4.1.2). */
export function clientRedirect(
  redirectUri: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url.href;
}
