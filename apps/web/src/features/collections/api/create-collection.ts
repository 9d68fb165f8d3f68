import {
  createCollectionResponseSchema,
  type Collection,
  type CreateCollectionForm,
  type CreateCollectionRequest,
} from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { collectionKeys, collectionsPath } from '../../../lib/collections/collection-keys';

/** The dialog's values as the API takes them: the checkbox becomes the mode. */
export function toCreateCollectionRequest(form: CreateCollectionForm): CreateCollectionRequest {
  return {
    name: form.name,
    description: form.description,
    mode: form.isCollaborative ? 'collaborative' : 'owned',
    ...(form.deadlineLocal
      ? {
          deadline: { local: form.deadlineLocal, timeZone: form.deadlineZone ?? browserTimeZone() },
          allowLateUploads: form.allowLateUploads ?? false,
        }
      : {}),
  };
}

/** The browser's IANA zone, the deadline field's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** POST /teams/{teamId}/collections; 400 invalidInput, 403 forbidden. */
export function postCollection(
  request: AuthedRequest,
  teamId: string,
  body: CreateCollectionRequest,
): Promise<Collection> {
  return request(collectionsPath(teamId), {
    method: 'POST',
    body,
    schema: createCollectionResponseSchema,
  });
}

export function useCreateCollectionMutation(teamId: string) {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: CreateCollectionForm) =>
      postCollection(request, teamId, toCreateCollectionRequest(form)),
    // Spec §7: the lists are refreshed, every view of them (team, collaborative, own).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionKeys.lists(teamId) }),
  });
}
