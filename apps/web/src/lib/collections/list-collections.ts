import {
  collectionListResponseSchema,
  PAGE_SIZE,
  type CollectionListResponse,
} from '@raccolta/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { queryPresets } from '../query-client';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { normaliseFilters, type CollectionFilters } from './collection-filters';
import { collectionKeys, collectionsPath, type CollectionListScope } from './collection-keys';

/**
 * The call of a view: All is GET /teams/{teamId}/collections with every filter; Mine is the
 * caller's own under /members/{userId}/collections and Shared is /shared-collections, both
 * without creator and view, which their path already decides.
 */
export function collectionsListPath(
  teamId: string,
  scope: CollectionListScope,
  lastKey: string | null,
): string {
  const { tab, member, tagged, collaborative, from, to, sort } = normaliseFilters(scope);
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (lastKey !== null) query.set('lastKey', lastKey);
  if (member !== undefined) query.set('member', member);
  if (tagged !== undefined) query.set('tagged', tagged);
  if (collaborative) query.set('view', 'collaborative');
  query.set('sort', sort);
  if (from !== undefined) query.set('from', String(from));
  if (to !== undefined) query.set('to', String(to));

  const team = encodeURIComponent(teamId);
  let path = collectionsPath(teamId);
  if (tab === 'mine') {
    path = `/teams/${team}/members/${encodeURIComponent(scope.selfId ?? '')}/collections`;
  } else if (tab === 'shared') {
    path = `/teams/${team}/shared-collections`;
  }
  return `${path}?${query.toString()}`;
}

/** One page of a view of the team's collections, by updated date. */
export function getCollections(
  request: AuthedRequest,
  teamId: string,
  scope: CollectionListScope,
  lastKey: string | null,
  signal?: AbortSignal,
): Promise<CollectionListResponse> {
  return request(collectionsListPath(teamId, scope, lastKey), {
    schema: collectionListResponseSchema,
    signal,
  });
}

/**
 * The collections of a view with its filters. `enabled` false holds the call, e.g. while the
 * date range is one the API would refuse.
 */
export function useCollectionsQuery(teamId: string, filters: CollectionFilters, enabled = true) {
  const { request, status, idClaims } = useSession();
  const scope: CollectionListScope = { ...normaliseFilters(filters), selfId: null };
  if (scope.tab === 'mine') scope.selfId = idClaims?.sub ?? null;
  return useInfiniteQuery({
    queryKey: collectionKeys.list(teamId, scope),
    queryFn: ({ pageParam, signal }) => getCollections(request, teamId, scope, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.lastKey ?? undefined,
    enabled: enabled && status === 'signedIn' && (scope.tab !== 'mine' || scope.selfId !== null),
    ...queryPresets.list,
  });
}
