import type { VerifyEmailRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** Not in contracts: the answer of POST /auth/verify-email. */
export const verifyEmailResponseSchema = z.object({ verified: z.literal(true) });

export async function postVerifyEmail(body: VerifyEmailRequest): Promise<void> {
  await apiRequest('/auth/verify-email', {
    method: 'POST',
    body,
    schema: verifyEmailResponseSchema,
  });
}

export function useVerifyEmailMutation() {
  return useMutation({ mutationFn: postVerifyEmail });
}
