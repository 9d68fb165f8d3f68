import type { VerifyEmailRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/**
 * Not in contracts: the answer of POST /auth/verify-email. `resetCode` comes when no password of
 * the sign-ups made for the address was kept: the person chooses one with it, as on the reset page.
 */
export const verifyEmailResponseSchema = z.object({
  verified: z.literal(true),
  resetCode: z.string().optional(),
});
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

export function postVerifyEmail(body: VerifyEmailRequest): Promise<VerifyEmailResponse> {
  return apiRequest('/auth/verify-email', {
    method: 'POST',
    body,
    schema: verifyEmailResponseSchema,
  });
}

export function useVerifyEmailMutation() {
  return useMutation({ mutationFn: postVerifyEmail });
}
