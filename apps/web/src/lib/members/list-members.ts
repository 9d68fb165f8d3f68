import { memberListResponseSchema, PAGE_SIZE, type MemberListResponse } from '@raccolta/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { queryPresets } from '../query-client';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { memberKeys, membersPath } from './member-keys';

/** The API reads a nickname prefix of at most 30 characters, the longest nickname. */
export const MEMBER_PREFIX_MAX_LENGTH = 30;

/** GET /teams/{teamId}/members: one page, optionally only nicknames starting with `prefix`. */
export function getMembers(
  request: AuthedRequest,
  teamId: string,
  prefix: string,
  lastKey: string | null,
  signal?: AbortSignal,
): Promise<MemberListResponse> {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (lastKey !== null) query.set('lastKey', lastKey);
  if (prefix !== '') query.set('prefix', prefix);
  return request(`${membersPath(teamId)}?${query.toString()}`, {
    schema: memberListResponseSchema,
    signal,
  });
}

export function useMembersQuery(teamId: string, prefix: string) {
  const { request, status } = useSession();
  const term = prefix.trim().slice(0, MEMBER_PREFIX_MAX_LENGTH);
  return useInfiniteQuery({
    queryKey: memberKeys.list(teamId, term),
    queryFn: ({ pageParam, signal }) => getMembers(request, teamId, term, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.lastKey ?? undefined,
    enabled: status === 'signedIn',
    ...queryPresets.list,
  });
}
