import type { ResetPasswordRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { anyBody, apiRequest } from '../../../lib/api-client';

/** POST /auth/reset-password with the e-mail and code of the link. */
export async function postResetPassword(body: ResetPasswordRequest): Promise<void> {
  await apiRequest('/auth/reset-password', { method: 'POST', body, schema: anyBody });
}

export function useResetPasswordMutation() {
  return useMutation({ mutationFn: postResetPassword });
}
