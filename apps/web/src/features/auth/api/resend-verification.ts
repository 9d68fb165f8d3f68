import type { ResendVerificationRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { anyBody, apiRequest } from '../../../lib/api-client';

/** POST /auth/resend-verification: answers 200 whether or not the address awaits verification. */
export async function postResendVerification(body: ResendVerificationRequest): Promise<void> {
  await apiRequest('/auth/resend-verification', { method: 'POST', body, schema: anyBody });
}

export function useResendVerificationMutation() {
  return useMutation({ mutationFn: postResendVerification });
}
