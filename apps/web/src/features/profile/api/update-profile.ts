import { meResponseSchema, type UpdateProfileRequest, type User } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQueryKey } from '../../../lib/auth/get-current-user';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';

/** PUT /users/@me; answers the updated user. */
export function putProfile(request: AuthedRequest, body: UpdateProfileRequest): Promise<User> {
  return request('/users/@me', { method: 'PUT', body, schema: meResponseSchema });
}

export function useUpdateProfileMutation() {
  const { request, idClaims } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileRequest) => putProfile(request, body),
    // The answer is the new current user: the header avatar and this page update without a refetch.
    onSuccess: (user) => queryClient.setQueryData(currentUserQueryKey(idClaims?.sub), user),
  });
}
