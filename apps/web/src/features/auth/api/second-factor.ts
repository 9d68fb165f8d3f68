import {
  secondFactorRequiredDataSchema,
  type SecondFactorRequest,
  type SecondFactorRequiredData,
} from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest, isApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth/session/session-context';
import { tokenResultSchema } from '../../../lib/auth/token-result';

/** POST /auth/second-factor: answers the secondFactorRequired step of a sign-in. */
export async function postSecondFactor(body: SecondFactorRequest): Promise<unknown> {
  const { result } = await apiRequest('/auth/second-factor', {
    method: 'POST',
    body,
    schema: tokenResultSchema,
  });
  return result;
}

/**
 * The data of a secondFactorRequired answer (password or provider sign-in of an account with a
 * second factor), which drives the second step rather than being shown as an error.
 */
export function secondFactorChallengeOf(error: unknown): SecondFactorRequiredData | null {
  if (!isApiError(error) || error.errorCode !== 'secondFactorRequired') return null;
  const parsed = secondFactorRequiredDataSchema.safeParse(error.data);
  return parsed.success ? parsed.data : null;
}

type WebauthnAnswer = NonNullable<SecondFactorRequest['webauthn']>;

export type SecondFactorAnswer =
  { totp: string } | { recoveryCode: string } | { webauthn: WebauthnAnswer };

/** The passkey's answer to the challenge's WebAuthn options (the browser library loads on use). */
export async function passkeyAssertion(
  options: NonNullable<SecondFactorRequiredData['webauthn']>,
): Promise<WebauthnAnswer> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({
    optionsJSON: options,
  });
  return { ...response, type: 'public-key', response: { ...response.response } };
}

export function useSecondFactorMutation(
  challenge: SecondFactorRequiredData,
  identityProvider: boolean,
) {
  const session = useSession();
  return useMutation({
    mutationFn: async (answer: SecondFactorAnswer) => {
      session.assertSignedOut();
      const result = await postSecondFactor({ challenge: challenge.challenge, ...answer });
      return session.signIn(result, identityProvider);
    },
  });
}
