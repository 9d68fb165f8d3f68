import { collectionSchema, type Collection } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../auth/session/session-context';
import type { AuthedRequest } from '../auth/session/authed-request';
import { collectionKeys, collectionPath } from './file-keys';

/** GET /teams/{teamId}/collections/{collectionId}; 404 for a collection the caller may not see. */
export function getCollection(
  request: AuthedRequest,
  teamId: string,
  collectionId: string,
  signal?: AbortSignal,
): Promise<Collection> {
  return request(collectionPath(teamId, collectionId), { schema: collectionSchema, signal });
}

export function useCollectionQuery(teamId: string, collectionId: string) {
  const { request, status } = useSession();
  return useQuery({
    queryKey: collectionKeys.detail(teamId, collectionId),
    queryFn: ({ signal }) => getCollection(request, teamId, collectionId, signal),
    enabled: status === 'signedIn',
  });
}
