import { remindResponseSchema, type Collection, type RemindResponse } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { collectionsPath } from '../../../lib/collections/collection-keys';

/**
 * POST /teams/{teamId}/collections/{collectionId}/reminders (owner, admin; issue #36): e-mails
 * the members who can upload and have sent nothing. 429 tooManyRequests within an hour.
 */
export function remindCollection(
  request: AuthedRequest,
  collection: Pick<Collection, 'teamId' | 'collectionId'>,
): Promise<RemindResponse> {
  return request(`${collectionsPath(collection.teamId, collection.collectionId)}/reminders`, {
    method: 'POST',
    schema: remindResponseSchema,
  });
}

export function useRemindCollectionMutation() {
  const { request } = useSession();
  return useMutation({
    mutationFn: (collection: Collection) => remindCollection(request, collection),
  });
}
