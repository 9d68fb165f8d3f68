import { fileListResponseSchema, PAGE_SIZE, type FileListResponse } from '@raccolta/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { queryPresets } from '../query-client';
import { isClientError } from '../api-client';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { renditionPollDelay } from './rendition-poll';
import { fileKeys, filesPath, type FileListFilters } from './file-keys';

export function filesListPath(
  teamId: string,
  collectionId: string,
  filters: FileListFilters,
  lastKey: string | null,
): string {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (lastKey !== null) query.set('lastKey', lastKey);
  if (filters.creator !== undefined) query.set('creator', filters.creator);
  if (filters.link !== undefined) query.set('link', filters.link);
  if (filters.guest !== undefined) query.set('guest', filters.guest);
  query.set('sort', filters.sort);
  if (filters.from !== undefined) query.set('from', String(filters.from));
  if (filters.to !== undefined) query.set('to', String(filters.to));
  return `${filesPath(teamId, collectionId)}?${query.toString()}`;
}

/** GET /teams/{teamId}/collections/{collectionId}/files: one page, by updatedAt. */
export function getFiles(
  request: AuthedRequest,
  teamId: string,
  collectionId: string,
  filters: FileListFilters,
  lastKey: string | null,
  signal?: AbortSignal,
): Promise<FileListResponse> {
  return request(filesListPath(teamId, collectionId, filters, lastKey), {
    schema: fileListResponseSchema,
    signal,
  });
}

/**
 * `enabled` false keeps a list the API would refuse (a from after to) from being asked for.
 * While a listed file waits for its thumbnail, the list is asked for again (renditionPollDelay),
 * so a new upload shows its picture seconds after the job made it, without a reload.
 */
export function useFilesQuery(
  teamId: string,
  collectionId: string,
  filters: FileListFilters,
  enabled = true,
) {
  const { request, status } = useSession();
  const pendingSince = useRef(new Map<string, number>());
  return useInfiniteQuery({
    queryKey: fileKeys.list(teamId, collectionId, filters),
    queryFn: ({ pageParam, signal }) =>
      getFiles(request, teamId, collectionId, filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.lastKey ?? undefined,
    enabled: enabled && status === 'signedIn',
    ...queryPresets.list,
    refetchInterval: (query) =>
      isClientError(query.state.error)
        ? false
        : renditionPollDelay(
            query.state.data?.pages.flatMap((page) => page.files) ?? [],
            pendingSince.current,
            Date.now(),
          ),
  });
}
