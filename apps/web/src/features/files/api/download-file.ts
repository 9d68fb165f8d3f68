import { fileDownloadResponseSchema, type FileItem } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { startBrowserDownload } from '../../../lib/start-download';
import { fileKeys, filesPath } from '../../../lib/files/file-keys';

/**
 * GET …/files/{fileId}/download: a link that works without the Authorization header. `inline`:
 * a PDF's link for the browser's own viewer (the preview's frame), not saved.
 */
export async function getFileDownloadLink(
  request: AuthedRequest,
  file: Pick<FileItem, 'teamId' | 'collectionId' | 'fileId'>,
  opts: { inline?: boolean; signal?: AbortSignal } = {},
): Promise<string> {
  const query = opts.inline === true ? '?disposition=inline' : '';
  const { url } = await request(
    `${filesPath(file.teamId, file.collectionId, file.fileId)}/download${query}`,
    { schema: fileDownloadResponseSchema, signal: opts.signal },
  );
  return url;
}

/**
 * Asks for a fresh link on every download rather than caching it: the link lives only minutes
 * (SIGNED_URL_TTL_SECONDS), less than any cache time worth having.
 */
export function useDownloadFileMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: FileItem) => {
      startBrowserDownload(await getFileDownloadLink(request, file));
    },
    // Asking for the link marks the file read.
    onSuccess: (_data, file) =>
      queryClient.invalidateQueries({ queryKey: fileKeys.lists(file.teamId, file.collectionId) }),
  });
}
