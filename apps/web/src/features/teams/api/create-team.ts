import {
  createTeamResponseSchema,
  type CreateTeamForm,
  type CreateTeamRequest,
  type CreateTeamResponse,
} from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { teamKeys } from '../../../lib/teams/team-keys';

/**
 * The create-team dialog's values as POST /teams takes them: the checkbox becomes the mode; blank
 * optional fields are undefined already, and JSON leaves them out.
 */
export function toCreateTeamRequest(form: CreateTeamForm): CreateTeamRequest {
  return {
    name: form.name,
    description: form.description,
    nickname: form.nickname,
    mode: form.isCollaborative ? 'collaborative' : 'controlled',
  };
}

/** POST /teams (needs the global scope, else 403 forbidden). */
export function postTeam(
  request: AuthedRequest,
  body: CreateTeamRequest,
): Promise<CreateTeamResponse> {
  return request('/teams', { method: 'POST', body, schema: createTeamResponseSchema });
}

export function useCreateTeamMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: CreateTeamForm) => postTeam(request, toCreateTeamRequest(form)),
    // Spec §7: afterwards the teams cache is refreshed (and the caller opens the team).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.lists() }),
  });
}
