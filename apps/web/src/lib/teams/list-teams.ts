import { PAGE_SIZE, teamListResponseSchema, type TeamListResponse } from '@raccolta/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { queryPresets } from '../query-client';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { teamKeys } from './team-keys';

/** The API reads at most 50 characters of a search. */
export const TEAM_SEARCH_MAX_LENGTH = 50;

export function teamsListPath(search: string, lastKey: string | null): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (lastKey !== null) query.set('lastKey', lastKey);
  if (search !== '') query.set('search', search);
  return `/teams?${query.toString()}`;
}

/** GET /teams: one page of the caller's teams, newest first, each with the caller's role. */
export function getTeams(
  request: AuthedRequest,
  search: string,
  lastKey: string | null,
  signal?: AbortSignal,
): Promise<TeamListResponse> {
  return request(teamsListPath(search, lastKey), { schema: teamListResponseSchema, signal });
}

export function useTeamsQuery(search: string) {
  const { request, status } = useSession();
  const term = search.trim().slice(0, TEAM_SEARCH_MAX_LENGTH);
  return useInfiniteQuery({
    queryKey: teamKeys.list(term),
    queryFn: ({ pageParam, signal }) => getTeams(request, term, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.lastKey ?? undefined,
    // Spec §6: teams are fetched only when signed in.
    enabled: status === 'signedIn',
    ...queryPresets.teams,
  });
}
