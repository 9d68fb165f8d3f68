import type { ForgotPasswordRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { anyBody, apiRequest } from '../../../lib/api-client';

/** POST /auth/forgot-password: answers 200 whether or not the address has an account. */
export async function postForgotPassword(body: ForgotPasswordRequest): Promise<void> {
  await apiRequest('/auth/forgot-password', { method: 'POST', body, schema: anyBody });
}

export function useForgotPasswordMutation() {
  return useMutation({ mutationFn: postForgotPassword });
}
