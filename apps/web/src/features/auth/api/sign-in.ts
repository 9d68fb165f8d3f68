import {
  newPasswordRequiredDataSchema,
  parseSignInIdentifier,
  signInFormSchema,
  type NewPasswordRequiredData,
  type SignInRequest,
} from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest, isApiError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth/session/session-context';
import { tokenResultSchema } from '../../../lib/auth/token-result';

/**
 * The sign-in form: the contracts form plus the team code. Internal members' usernames are unique
 * only within a team, so a username sign-in needs one (the server answers teamRequired without).
 */
export const signInPageFormSchema = signInFormSchema.extend({
  team: z.string({ error: 'invalidInput' }).trim().max(64, { error: 'invalidInput' }),
});
export type SignInPageFormInput = z.input<typeof signInPageFormSchema>;
export type SignInPageForm = z.output<typeof signInPageFormSchema>;

/** Whether the identifier will be sent as a username (so a team code may matter). */
export function isUsernameIdentifier(identifier: string): boolean {
  return identifier.trim() !== '' && !('email' in parseSignInIdentifier(identifier));
}

/**
 * The body of POST /auth/signin. A username carries the team field (filled from the page's query
 * and editable, so a wrong code in a link can be corrected); an e-mail carries the query's team.
 */
export function buildSignInRequest(form: SignInPageForm, queryTeam: string | null): SignInRequest {
  const team = isUsernameIdentifier(form.identifier)
    ? form.team === ''
      ? null
      : form.team
    : queryTeam;
  return {
    ...parseSignInIdentifier(form.identifier),
    password: form.password,
    ...(team === null ? {} : { team }),
  };
}

export async function postSignIn(body: SignInRequest): Promise<unknown> {
  const { result } = await apiRequest('/auth/signin', {
    method: 'POST',
    body,
    schema: tokenResultSchema,
  });
  return result;
}

/**
 * The data of a newPasswordRequired answer, which drives the set-new-password form rather than
 * being shown as an error (spec §8); null for any other failure.
 */
export function newPasswordChallengeOf(error: unknown): NewPasswordRequiredData | null {
  if (!isApiError(error) || error.errorCode !== 'newPasswordRequired') return null;
  const parsed = newPasswordRequiredDataSchema.safeParse(error.data);
  return parsed.success ? parsed.data : null;
}

export function useSignInMutation() {
  const session = useSession();
  return useMutation({
    mutationFn: async (body: SignInRequest) => {
      session.assertSignedOut();
      return session.signIn(await postSignIn(body), false);
    },
  });
}
