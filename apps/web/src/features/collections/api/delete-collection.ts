import type { Collection, CollectionListResponse } from '@raccolta/contracts';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { fileKeys } from '../../../lib/files/file-keys';
import { collectionKeys, collectionsPath } from '../../../lib/collections/collection-keys';

/**
 * DELETE /teams/{teamId}/collections/{collectionId}: 204 with no body; owner and admin only (403
 * otherwise). Its files, uploads in progress and downloads go with it.
 */
export function deleteCollection(
  request: AuthedRequest,
  collection: Pick<Collection, 'teamId' | 'collectionId'>,
): Promise<void> {
  return request(collectionsPath(collection.teamId, collection.collectionId), {
    method: 'DELETE',
    schema: z.undefined(),
  });
}

export function useDeleteCollectionMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (collection: Collection) => deleteCollection(request, collection),
    onSuccess: (_data, { teamId, collectionId }) => {
      // Out of every loaded list at once, then the lists are fetched again.
      queryClient.setQueriesData<InfiniteData<CollectionListResponse>>(
        { queryKey: collectionKeys.lists(teamId) },
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              collections: page.collections.filter((c) => c.collectionId !== collectionId),
            })),
          },
      );
      // Its files screen's queries answer nothing any more.
      queryClient.removeQueries({ queryKey: fileKeys.collection(teamId, collectionId) });
      return queryClient.invalidateQueries({ queryKey: collectionKeys.lists(teamId) });
    },
  });
}
