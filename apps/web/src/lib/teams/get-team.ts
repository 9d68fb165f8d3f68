import { teamSchema, type Team } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { queryPresets } from '../query-client';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { teamKeys } from './team-keys';

/** GET /teams/{teamId or alias}. */
export function getTeam(request: AuthedRequest, ref: string, signal?: AbortSignal): Promise<Team> {
  return request(`/teams/${encodeURIComponent(ref)}`, { schema: teamSchema, signal });
}

export function useTeamQuery(ref: string | null) {
  const { request, status } = useSession();
  return useQuery({
    queryKey: teamKeys.detail(ref ?? ''),
    queryFn: ({ signal }) => getTeam(request, ref ?? '', signal),
    enabled: status === 'signedIn' && ref !== null && ref.trim() !== '',
    ...queryPresets.teams,
  });
}
