import type { ResetPasswordRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** POST /auth/reset-password with the e-mail and code of the link. */
export async function postResetPassword(body: ResetPasswordRequest): Promise<void> {
  await apiRequest('/auth/reset-password', { method: 'POST', body, schema: z.unknown() });
}

export function useResetPasswordMutation() {
  return useMutation({ mutationFn: postResetPassword });
}
