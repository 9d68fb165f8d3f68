import {
  PAGE_SIZE,
  type TrashListResponse,
  type TrashPurgeResponse,
  type TrashRestoreResponse,
} from '@raccolta/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { collectionKeys as fileCollectionKeys, fileKeys } from '../../../lib/files/file-keys';

/** Query keys of a team's trash, under the team's id as the API names it. */
export const trashKeys = {
  all: (teamId: string) => ['trash', teamId] as const,
};

function trashPath(teamId: string, action?: 'restore' | 'purge'): string {
  const base = `/teams/${encodeURIComponent(teamId)}/trash`;
  return action === undefined ? base : `${base}/${action}`;
}

const schemas = () => import('./trash-schemas');

/** GET /teams/{teamId}/trash: a page of the trash, newest first (owners and admins). */
export function getTrash(
  request: AuthedRequest,
  teamId: string,
  lastKey: string | null,
  signal?: AbortSignal,
): Promise<TrashListResponse> {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (lastKey !== null) query.set('lastKey', lastKey);
  return request(`${trashPath(teamId)}?${query.toString()}`, {
    schema: () => schemas().then((m) => m.trashListResponseSchema),
    signal,
  });
}

export function useTrashQuery(teamId: string | null) {
  const { request, status } = useSession();
  return useInfiniteQuery({
    queryKey: trashKeys.all(teamId ?? ''),
    queryFn: ({ pageParam, signal }) => getTrash(request, teamId ?? '', pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.lastKey ?? undefined,
    enabled: status === 'signedIn' && teamId !== null,
    // The trash changes by others' deletions too: opening the page always asks.
    staleTime: 0,
  });
}

/** After a restore or a purge: the trash, and the lists whose files and counts moved. */
function useRefreshAfter() {
  const queryClient = useQueryClient();
  return (teamId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trashKeys.all(teamId) }),
      queryClient.invalidateQueries({ queryKey: fileCollectionKeys.all(teamId) }),
      queryClient.invalidateQueries({ queryKey: fileKeys.all(teamId) }),
    ]);
}

export function useRestoreMutation() {
  const { request } = useSession();
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ teamId, itemIds }: { teamId: string; itemIds: string[] }) =>
      request<TrashRestoreResponse>(trashPath(teamId, 'restore'), {
        method: 'POST',
        body: { itemIds },
        schema: () => schemas().then((m) => m.trashRestoreResponseSchema),
      }),
    onSuccess: (_data, { teamId }) => refresh(teamId),
  });
}

/** Purges the items named, or (without ids) empties the whole trash. */
export function usePurgeMutation() {
  const { request } = useSession();
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ teamId, itemIds }: { teamId: string; itemIds?: string[] }) =>
      request<TrashPurgeResponse>(
        itemIds === undefined ? trashPath(teamId) : trashPath(teamId, 'purge'),
        {
          method: itemIds === undefined ? 'DELETE' : 'POST',
          ...(itemIds === undefined ? {} : { body: { itemIds } }),
          schema: () => schemas().then((m) => m.trashPurgeResponseSchema),
        },
      ),
    onSuccess: (_data, { teamId }) => refresh(teamId),
  });
}
