import { collectionSchema, type Collection } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import {
  collectionPatch,
  type CollectionChanges,
  type CollectionPatchOperation,
} from '../utils/collection-patch';
import { collectionsPath, storeCollection } from '../../../lib/collections/collection-keys';

/**
 * PATCH /teams/{teamId}/collections/{collectionId} with an RFC 6902 list over /name, /description
 * and /tags; 400 invalidTeamMember when a tag is not an active member.
 */
export function patchCollection(
  request: AuthedRequest,
  teamId: string,
  collectionId: string,
  operations: CollectionPatchOperation[],
): Promise<Collection> {
  return request(collectionsPath(teamId, collectionId), {
    method: 'PATCH',
    body: operations,
    schema: collectionSchema,
  });
}

export interface CollectionUpdate {
  collection: Collection;
  changes: CollectionChanges;
}

export function useUpdateCollectionMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ collection, changes }: CollectionUpdate) =>
      patchCollection(
        request,
        collection.teamId,
        collection.collectionId,
        collectionPatch(collection, changes),
      ),
    onSuccess: (collection) => storeCollection(queryClient, collection),
  });
}
