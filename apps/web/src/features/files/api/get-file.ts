import { fileSchema, type FileItem } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { queryPresets } from '../../../lib/query-client';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { fileKeys, filesPath } from '../../../lib/files/file-keys';

/** GET …/files/{fileId}: the file with a fresh previewUrl; the server marks it read. */
export function getFile(
  request: AuthedRequest,
  teamId: string,
  collectionId: string,
  fileId: string,
  signal?: AbortSignal,
): Promise<FileItem> {
  return request(filesPath(teamId, collectionId, fileId), { schema: fileSchema, signal });
}

export function useFileQuery(teamId: string, collectionId: string, fileId: string) {
  const { request, status } = useSession();
  return useQuery({
    queryKey: fileKeys.detail(teamId, collectionId, fileId),
    queryFn: ({ signal }) => getFile(request, teamId, collectionId, fileId, signal),
    enabled: status === 'signedIn',
    ...queryPresets.file,
  });
}
