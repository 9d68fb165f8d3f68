import {
  OAUTH_CODE_CHALLENGE_METHOD,
  OAUTH_RESPONSE_TYPE,
  OAUTH_SCOPES,
  PROVIDER_REDIRECT_DELAY_MS,
} from '@raccolta/contracts';
import { apiBaseUrl } from '../../config';
import { createPkcePair } from './pkce';
import { isAppPath } from './safe-path';

export const OAUTH_CLIENT_ID = 'raccolta-web';
export const OAUTH_CALLBACK_PATH = '/auth/callback';

// The PKCE verifier and the state belong to one attempt in one tab: sessionStorage.
const STATE_KEY = 'oauthState';
const VERIFIER_KEY = 'oauthCodeVerifier';
// Where the callback goes when the sign-in started elsewhere than the team app (the upload app).
const RETURN_TO_KEY = 'oauthReturnTo';
// Spec §3: an invitation sign-up survives the round trip to the provider, in localStorage.
export const INVITATION_REDIRECT_KEY = 'invitationRedirect';
export const INVITED_EMAIL_KEY = 'invitedEmail';

export function oauthRedirectUri(origin: string = window.location.origin): string {
  return `${origin}${OAUTH_CALLBACK_PATH}`;
}

export interface AuthorizeUrlInput {
  provider: string;
  challenge: string;
  state: string;
  locale: string;
  origin?: string;
  apiBase?: string;
}

/** The API's authorize endpoint, which plays the hosted identity provider. */
export function buildAuthorizeUrl(input: AuthorizeUrlInput): string {
  const params: [string, string][] = [
    ['identity_provider', input.provider],
    ['client_id', OAUTH_CLIENT_ID],
    ['response_type', OAUTH_RESPONSE_TYPE],
    ['redirect_uri', oauthRedirectUri(input.origin)],
    ['scope', OAUTH_SCOPES.join(' ')],
    ['state', input.state],
    ['code_challenge', input.challenge],
    ['code_challenge_method', OAUTH_CODE_CHALLENGE_METHOD],
    ['ui_locales', input.locale],
  ];
  // encodeURIComponent rather than URLSearchParams: a space becomes %20, never an ambiguous "+".
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `${input.apiBase ?? apiBaseUrl}/oauth2/authorize?${query}`;
}

export interface Invitation {
  /** Where to return after signing in: the accept-invitation page. */
  redirect: string;
  email: string;
}

export interface ProviderSignInOptions {
  locale: string;
  invitation?: Invitation;
  /** An in-app path to land on once signed in, instead of the team list. */
  returnTo?: string;
  /** Injected by tests; the browser navigation otherwise. */
  assign?: (url: string) => void;
  wait?: (ms: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts a social sign-in: PKCE pair and state kept for the callback, then, after the spec's
 * 100 ms delay, the browser leaves for the provider. Throws when the browser cannot (no Web
 * Crypto outside secure contexts, blocked storage); the caller tells the user.
 */
export async function startProviderSignIn(
  provider: string,
  options: ProviderSignInOptions,
): Promise<void> {
  if (options.invitation) {
    localStorage.setItem(INVITATION_REDIRECT_KEY, options.invitation.redirect);
    localStorage.setItem(INVITED_EMAIL_KEY, options.invitation.email);
  }
  const { verifier, challenge, state } = await createPkcePair();
  sessionStorage.setItem(STATE_KEY, state);
  sessionStorage.setItem(VERIFIER_KEY, verifier);
  if (isAppPath(options.returnTo)) sessionStorage.setItem(RETURN_TO_KEY, options.returnTo);
  else sessionStorage.removeItem(RETURN_TO_KEY);
  await (options.wait ?? sleep)(PROVIDER_REDIRECT_DELAY_MS);
  const url = buildAuthorizeUrl({ provider, challenge, state, locale: options.locale });
  (options.assign ?? ((target: string) => window.location.assign(target)))(url);
}

export interface OAuthAttempt {
  state: string | null;
  verifier: string | null;
  /** Where to land after signing in, when the attempt started outside the team app. */
  returnTo: string | null;
}

/** The state and verifier of the attempt being completed; read once, so a code is used once. */
export function takeOAuthAttempt(): OAuthAttempt {
  const returnTo = sessionStorage.getItem(RETURN_TO_KEY);
  const attempt = {
    state: sessionStorage.getItem(STATE_KEY),
    verifier: sessionStorage.getItem(VERIFIER_KEY),
    returnTo: isAppPath(returnTo) ? returnTo : null,
  };
  sessionStorage.removeItem(STATE_KEY);
  sessionStorage.removeItem(VERIFIER_KEY);
  sessionStorage.removeItem(RETURN_TO_KEY);
  return attempt;
}

/** The invitation saved before leaving for the provider, if any (and if it points inside the app). */
export function readSavedInvitation(): Invitation | null {
  const redirect = localStorage.getItem(INVITATION_REDIRECT_KEY);
  const email = localStorage.getItem(INVITED_EMAIL_KEY);
  return isAppPath(redirect) && email ? { redirect, email } : null;
}

export function clearSavedInvitation(): void {
  localStorage.removeItem(INVITATION_REDIRECT_KEY);
  localStorage.removeItem(INVITED_EMAIL_KEY);
}
