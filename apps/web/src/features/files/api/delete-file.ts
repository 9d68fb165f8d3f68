import type { FileItem } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { collectionKeys, fileKeys, filesPath } from '../../../lib/files/file-keys';

/** DELETE …/files/{fileId}: 204 with no body; owner and admin only (403 otherwise). */
export function deleteFile(
  request: AuthedRequest,
  file: Pick<FileItem, 'teamId' | 'collectionId' | 'fileId'>,
): Promise<void> {
  return request(filesPath(file.teamId, file.collectionId, file.fileId), {
    method: 'DELETE',
    schema: z.undefined(),
  });
}

export function useDeleteFileMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: FileItem) => deleteFile(request, file),
    onSuccess: (_data, file) => {
      queryClient.removeQueries({
        queryKey: fileKeys.detail(file.teamId, file.collectionId, file.fileId),
      });
      // The collection moved too (its updatedAt and file count).
      void queryClient.invalidateQueries({ queryKey: collectionKeys.all(file.teamId) });
      return queryClient.invalidateQueries({
        queryKey: fileKeys.lists(file.teamId, file.collectionId),
      });
    },
  });
}
