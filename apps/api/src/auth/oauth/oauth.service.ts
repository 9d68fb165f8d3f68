import { createHash } from 'node:crypto';
import type { TokenSet } from '@raccolta/contracts';
import * as client from 'openid-client';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { newId } from '../../db/ids.js';
import { AppError } from '../../errors/app-error.js';
import { findUserById } from '../../users/users.repository.js';
import { checkCode, consumeCode, createCode } from '../one-time-codes.js';
import { safeEqual } from '../secrets.js';
import type { SessionDevice } from '../devices.js';
import { requireSecondStep } from '../second-factor/second-factor.service.js';
import { startSession } from '../sessions.js';
import { checkAuthorizeRequest, clientRedirect, type AuthorizeQuery } from './authorize-request.js';
import { resolveAccount, type AccountOutcome } from './oauth-accounts.js';
import {
  insertTransaction,
  takeTransaction,
  type OauthTransactionRow,
} from './oauth.repository.js';
import { newProviderChecks, type OidcProviders, type ProviderProfile } from './providers.js';

/** Long enough to sign in at the provider (password, second factor), short enough to go stale. */
export const TRANSACTION_TTL_MS = 10 * 60_000;
/** The web app exchanges the code as soon as the browser lands on /auth/callback. */
export const OAUTH_CODE_TTL_MS = 60_000;

// Stable English sentences: the web app shows error_description as it comes.
export const MESSAGES = {
  providerUnreachable: 'The identity provider could not be reached. Please try again later.',
  providerAnswerInvalid:
    'The sign-in with the identity provider could not be verified. Please try again.',
  providerRefused: 'The identity provider did not complete the sign-in.',
  emailNotVerified: 'The identity provider did not confirm your e-mail address.',
  signInFailed: 'The sign-in could not be completed. Please try again.',
  unknownTransaction: 'Unknown or expired sign-in: start again from the sign-in page',
} as const;

export type OauthOutcome =
  /** Nowhere known to send the browser back to: answered in place with invalidRequest. */
  | { kind: 'refused'; message: string }
  | { kind: 'redirect'; location: string; transactionId?: string };

/** Starts a login at the external provider; the transaction row carries everything it needs. */
export async function startAuthorization(
  ctx: AppContext,
  providers: OidcProviders,
  query: AuthorizeQuery,
): Promise<OauthOutcome> {
  const check = checkAuthorizeRequest(query, {
    redirectUris: ctx.config.auth.oauthRedirectUrls,
    providerIds: providers.list().map((p) => p.id),
  });
  if (check.kind === 'refused') return check;
  if (check.kind === 'redirected-error') {
    const { redirectUri, error, description, state } = check;
    return {
      kind: 'redirect',
      location: clientRedirect(redirectUri, { error, error_description: description, state }),
    };
  }
  const { request } = check;
  const provider = providers.find(request.providerId);
  if (!provider) throw new Error(`provider ${request.providerId} vanished from the configuration`);
  const checks = newProviderChecks();
  let location: URL;
  try {
    location = await providers.authorizationUrl(provider, checks, request.uiLocales);
  } catch (err) {
    ctx.logger.warn({ err, provider: provider.id }, 'identity provider discovery failed');
    return {
      kind: 'redirect',
      location: clientRedirect(request.redirectUri, {
        error: 'temporarily_unavailable',
        error_description: MESSAGES.providerUnreachable,
        state: request.state,
      }),
    };
  }
  const now = ctx.clock();
  const transactionId = newId();
  await insertTransaction(ctx.db, {
    id: transactionId,
    provider: provider.id,
    client_redirect_uri: request.redirectUri,
    client_state: request.state,
    client_code_challenge: request.codeChallenge,
    provider_state: checks.state,
    provider_nonce: checks.nonce,
    provider_code_verifier: checks.codeVerifier,
    locale: request.locale,
    expires_at: now + TRANSACTION_TTL_MS,
    created_at: now,
  });
  return { kind: 'redirect', location: location.href, transactionId };
}

export interface CallbackInput {
  providerId: string;
  /** From the browser's cookie. */
  transactionId: string | undefined;
  state: string | undefined;
  error: string | undefined;
  errorDescription: string | undefined;
  /** The query string exactly as the provider sent it, for openid-client's checks. */
  rawQuery: string;
}

/**
 * The provider sent the browser back. The transaction must be named both by the provider's state
 * and by this browser's cookie, so nobody can complete a login in someone else's browser.
 */
export async function completeCallback(
  ctx: AppContext,
  providers: OidcProviders,
  input: CallbackInput,
): Promise<OauthOutcome> {
  const provider = providers.find(input.providerId);
  if (!provider || !input.transactionId || !input.state) {
    return { kind: 'refused', message: MESSAGES.unknownTransaction };
  }
  const tx = await takeTransaction(
    ctx.db,
    { id: input.transactionId, providerState: input.state, provider: provider.id },
    ctx.clock(),
  );
  if (!tx) return { kind: 'refused', message: MESSAGES.unknownTransaction };
  const back = (params: Record<string, string>): OauthOutcome => ({
    kind: 'redirect',
    location: clientRedirect(tx.client_redirect_uri, { ...params, state: tx.client_state }),
  });

  if (input.error !== undefined) {
    return back({
      error: /^[a-z_]{1,64}$/.test(input.error) ? input.error : 'access_denied',
      error_description: input.errorDescription?.slice(0, 300) || MESSAGES.providerRefused,
    });
  }
  let profile: ProviderProfile;
  try {
    profile = await providers.fetchProfile(provider, input.rawQuery, {
      state: tx.provider_state,
      nonce: tx.provider_nonce,
      codeVerifier: tx.provider_code_verifier,
    });
  } catch (err) {
    ctx.logger.warn({ err, provider: provider.id }, 'identity provider callback failed');
    return isProviderAnswerError(err)
      ? back({ error: 'access_denied', error_description: MESSAGES.providerAnswerInvalid })
      : back({ error: 'temporarily_unavailable', error_description: MESSAGES.providerUnreachable });
  }
  const { email } = profile;
  if (!email || !profile.emailVerified) {
    return back({ error: 'access_denied', error_description: MESSAGES.emailNotVerified });
  }

  let outcome: Awaited<ReturnType<typeof signInWithProfile>>;
  try {
    outcome = await signInWithProfile(ctx, tx, { ...profile, email });
  } catch (err) {
    // The browser is mid-flow: the web app shows a sentence better than a JSON error page would.
    ctx.logger.error({ err, provider: provider.id }, 'provider sign-in failed');
    return back({ error: 'server_error', error_description: MESSAGES.signInFailed });
  }
  if (outcome.kind === 'refused') {
    return back({ error: 'access_denied', error_description: outcome.description });
  }
  return back({ code: outcome.code });
}

function isProviderAnswerError(err: unknown): boolean {
  return (
    err instanceof client.ClientError ||
    err instanceof client.ResponseBodyError ||
    err instanceof client.AuthorizationResponseError
  );
}

/**
 * Finds, links or creates the account and issues the web app's one-time code, in one transaction.
 * Two callbacks of the same person racing (two tabs) can both try to create the account: the
 * loser's transaction rolls back and, tried again, finds the winner's account.
 */
async function signInWithProfile(
  ctx: AppContext,
  tx: OauthTransactionRow,
  profile: ProviderProfile & { email: string },
): Promise<Exclude<AccountOutcome, { kind: 'signed-in' }> | { kind: 'code'; code: string }> {
  const attempt = () =>
    ctx.db.transaction().execute(async (trx) => {
      const now = ctx.clock();
      const locale = tx.locale === 'it' ? 'it' : 'en';
      const account = await resolveAccount(
        trx,
        ctx.config,
        { providerId: tx.provider, profile, locale },
        now,
      );
      if (account.kind === 'refused') return account;
      const code = await createCode(
        trx,
        {
          userId: account.user.id,
          purpose: 'oauth_code',
          ttlMs: OAUTH_CODE_TTL_MS,
          data: { redirectUri: tx.client_redirect_uri, codeChallenge: tx.client_code_challenge },
        },
        now,
      );
      return { kind: 'code' as const, code };
    });
  try {
    return await attempt();
  } catch (err) {
    ctx.logger.info({ err }, 'provider sign-in raced another; trying again');
    return attempt();
  }
}

const codeDataSchema = z.object({ redirectUri: z.string(), codeChallenge: z.string() });

export interface TokenRequest {
  code: string;
  codeVerifier: string;
  redirectUri: string;
}

/**
 * The web app's code exchange. The code is used up before anything else is checked, so a code
 * presented with a wrong verifier or redirect URI cannot be tried again.
 */
export async function exchangeCode(
  ctx: AppContext,
  input: TokenRequest,
  device?: SessionDevice,
): Promise<TokenSet> {
  const now = ctx.clock();
  const refuse = (reason: string) => {
    ctx.logger.info({ reason }, 'oauth code refused');
    return new AppError('invalidAuthorization', {
      message: 'Invalid, used or expired authorization code',
    });
  };
  const check = await checkCode(ctx.db, input.code, 'oauth_code', now);
  if (check.status !== 'valid') throw refuse(check.status);
  if (!(await consumeCode(ctx.db, check.id, now))) throw refuse('used');
  const data = codeDataSchema.safeParse(check.data);
  if (!data.success) throw refuse('malformed code data');
  if (data.data.redirectUri !== input.redirectUri) throw refuse('redirect_uri mismatch');
  const challenge = createHash('sha256').update(input.codeVerifier).digest('base64url');
  if (!safeEqual(challenge, data.data.codeChallenge)) throw refuse('code_verifier mismatch');
  const user = await findUserById(ctx.db, check.userId);
  if (!user) throw refuse('user gone');
  await requireSecondStep(ctx, user, { identityProvider: true });
  return startSession(ctx, user, { identityProvider: true, device });
}
