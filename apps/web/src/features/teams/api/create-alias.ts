import {
  createAliasResponseSchema,
  type CreateAliasRequest,
  type CreateAliasResponse,
} from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { teamKeys } from '../../../lib/teams/team-keys';

/** POST /teams/{teamId}/aliases; alreadyExists (409), quotaExceededAliases (403), invalidInput. */
export function postAlias(
  request: AuthedRequest,
  teamId: string,
  body: CreateAliasRequest,
): Promise<CreateAliasResponse> {
  return request(`/teams/${encodeURIComponent(teamId)}/aliases`, {
    method: 'POST',
    body,
    schema: createAliasResponseSchema,
  });
}

export function useCreateAliasMutation(teamId: string) {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    // Spec §3: a new alias is created with star true and becomes the preferred one.
    mutationFn: (alias: string) => postAlias(request, teamId, { alias, star: true }),
    // The team's aliases and starAlias changed; the lists link by the preferred alias.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.all }),
  });
}
