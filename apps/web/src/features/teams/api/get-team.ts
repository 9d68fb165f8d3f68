import { teamSchema, type Team } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { queryPresets } from '../../../app/query-client';
import { useSession, type AuthedRequest } from '../../auth';
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
