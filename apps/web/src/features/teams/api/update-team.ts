import { teamSchema, type Team } from '@raccolta/contracts';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { teamPatch, type EditableTeam, type TeamPatchOperation } from '../utils/team-patch';
import { teamKeys } from '../../../lib/teams/team-keys';

/** PATCH /teams/{teamId} with an RFC 6902 list; answers the updated team. */
export function patchTeam(
  request: AuthedRequest,
  teamId: string,
  operations: TeamPatchOperation[],
): Promise<Team> {
  return request(`/teams/${encodeURIComponent(teamId)}`, {
    method: 'PATCH',
    body: operations,
    schema: teamSchema,
  });
}

/** Puts a fresh team into every cached copy of it (by id and by each alias it was opened with). */
export function storeTeam(queryClient: QueryClient, team: Team): void {
  queryClient.setQueriesData<Team>({ queryKey: teamKeys.details() }, (cached) =>
    cached?.teamId === team.teamId ? team : cached,
  );
  void queryClient.invalidateQueries({ queryKey: teamKeys.lists() });
}

export interface TeamUpdate {
  original: Team;
  updated: EditableTeam;
}

export function useUpdateTeamMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ original, updated }: TeamUpdate) =>
      patchTeam(request, original.teamId, teamPatch(original, updated)),
    onSuccess: (team) => storeTeam(queryClient, team),
  });
}
