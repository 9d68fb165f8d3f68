import {
  type NewPasswordForm,
  type NewPasswordRequest,
  type NewPasswordRequiredData,
} from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth/session/session-context';
import { tokenResultSchema } from '../../../lib/auth/token-result';

/** POST /auth/new-password: answers the newPasswordRequired challenge of a sign-in. */
export async function postNewPassword(body: NewPasswordRequest): Promise<unknown> {
  const { result } = await apiRequest('/auth/new-password', {
    method: 'POST',
    body,
    schema: tokenResultSchema,
  });
  return result;
}

export function useNewPasswordMutation(challenge: NewPasswordRequiredData) {
  const session = useSession();
  return useMutation({
    mutationFn: async (form: NewPasswordForm) => {
      session.assertSignedOut();
      const result = await postNewPassword({
        newPassword: form.password,
        session: challenge.session,
        teamId: challenge.teamId,
        username: challenge.username,
      });
      return session.signIn(result, false);
    },
  });
}
