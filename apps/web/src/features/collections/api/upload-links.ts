import {
  uploadLinkListResponseSchema,
  uploadLinkSchema,
  type CreateUploadLink,
  type UploadLink,
} from '@raccolta/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import { collectionsPath } from '../../../lib/collections/collection-keys';

/** A collection's upload links for guests (GET/POST/PATCH …/collections/{id}/links). */
const linksPath = (teamId: string, collectionId: string) =>
  `${collectionsPath(teamId, collectionId)}/links`;

export const uploadLinkKeys = {
  list: (teamId: string, collectionId: string) => ['upload-links', teamId, collectionId] as const,
};

export function useUploadLinksQuery(teamId: string, collectionId: string) {
  const { request } = useSession();
  return useQuery({
    queryKey: uploadLinkKeys.list(teamId, collectionId),
    queryFn: () =>
      request(linksPath(teamId, collectionId), { schema: uploadLinkListResponseSchema }),
  });
}

export function useCreateUploadLinkMutation(teamId: string, collectionId: string) {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateUploadLink) =>
      request(linksPath(teamId, collectionId), {
        method: 'POST',
        body,
        schema: uploadLinkSchema,
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: uploadLinkKeys.list(teamId, collectionId) }),
  });
}

export function useToggleUploadLinkMutation(teamId: string, collectionId: string) {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (link: Pick<UploadLink, 'linkId' | 'enabled'>) =>
      request(`${linksPath(teamId, collectionId)}/${encodeURIComponent(link.linkId)}`, {
        method: 'PATCH',
        body: { enabled: link.enabled },
        schema: uploadLinkSchema,
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: uploadLinkKeys.list(teamId, collectionId) }),
  });
}
