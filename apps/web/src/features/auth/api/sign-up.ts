import type { SignUpRequest } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** Not in contracts: the answer of POST /auth/signup. */
export const signUpResponseSchema = z.object({ userId: z.string(), username: z.string() });
export type SignUpResponse = z.infer<typeof signUpResponseSchema>;

export function postSignUp(body: SignUpRequest): Promise<SignUpResponse> {
  return apiRequest('/auth/signup', { method: 'POST', body, schema: signUpResponseSchema });
}

export function useSignUpMutation() {
  return useMutation({ mutationFn: postSignUp });
}
