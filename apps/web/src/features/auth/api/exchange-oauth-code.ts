import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth/session/session-context';
import { SessionError } from '../../../lib/auth/session/token-storage';
import {
  clearSavedInvitation,
  OAUTH_CLIENT_ID,
  oauthRedirectUri,
  readSavedInvitation,
  takeOAuthAttempt,
} from '../../../lib/auth/oauth-redirect';
import { tokenResultSchema } from '../../../lib/auth/token-result';
import type { IdClaims } from '../../../lib/auth/session/token-storage';
import type { SecondFactorRequiredData } from '@raccolta/contracts';
import { secondFactorChallengeOf } from './second-factor';

/** Not in contracts: the authorization-code grant of POST /oauth2/token, with PKCE. */
export interface OAuthTokenRequest {
  grant_type: 'authorization_code';
  code: string;
  code_verifier: string;
  redirect_uri: string;
  client_id: string;
}

export async function postOAuthToken(body: OAuthTokenRequest): Promise<unknown> {
  const { result } = await apiRequest('/oauth2/token', {
    method: 'POST',
    body,
    schema: tokenResultSchema,
  });
  return result;
}

/**
 * Where the callback goes next: the saved invitation when its e-mail is the signed-in one, else
 * the place the sign-in started from when that was not the team app (returnTo).
 */
export interface OAuthSignInOutcome {
  invitationRedirect: string | null;
  returnTo: string | null;
  /** Set when the account has a second factor: the page asks for it before anything else. */
  secondFactor?: SecondFactorRequiredData;
}

/** Where a signed-in provider sign-in goes next (spec §2). */
export function oauthSignedInOutcome(
  claims: IdClaims,
  returnTo: string | null,
): OAuthSignInOutcome {
  const invitation = readSavedInvitation();
  clearSavedInvitation();
  // Spec §2: a different account than the invited one goes to the team list instead.
  const matches =
    invitation !== null &&
    claims.email !== undefined &&
    invitation.email.trim().toLowerCase() === claims.email.trim().toLowerCase();
  return { invitationRedirect: matches ? invitation.redirect : null, returnTo };
}

export function useOAuthCallbackMutation() {
  const session = useSession();
  return useMutation({
    mutationFn: async ({
      code,
      state,
    }: {
      code: string;
      state: string;
    }): Promise<OAuthSignInOutcome> => {
      const attempt = takeOAuthAttempt();
      if (attempt.state === null || attempt.verifier === null || attempt.state !== state) {
        throw new SessionError('oauthStateMismatch');
      }
      session.assertSignedOut();
      let result: unknown;
      try {
        result = await postOAuthToken({
          grant_type: 'authorization_code',
          code,
          code_verifier: attempt.verifier,
          redirect_uri: oauthRedirectUri(),
          client_id: OAUTH_CLIENT_ID,
        });
      } catch (error) {
        const secondFactor = secondFactorChallengeOf(error);
        if (secondFactor === null) throw error;
        return { invitationRedirect: null, returnTo: attempt.returnTo, secondFactor };
      }
      return oauthSignedInOutcome(session.signIn(result, true), attempt.returnTo);
    },
  });
}
