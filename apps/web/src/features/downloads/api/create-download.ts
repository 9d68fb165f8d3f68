import { type CreateDownloadRequest, type Download } from '@raccolta/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { downloadKeys, downloadsPath } from './download-keys';

/**
 * POST /teams/{teamId}/downloads: 202 with the download, prepared in the background. Errors:
 * nothingToDownload 400 (no files), forbidden 403 (uploaders), notFound 404.
 */
export function createDownload(
  request: AuthedRequest,
  teamId: string,
  body: CreateDownloadRequest,
): Promise<Download> {
  return request(downloadsPath(teamId), {
    method: 'POST',
    body,
    schema: () => import('./download-schemas').then((m) => m.createDownloadResponseSchema),
  });
}

export interface CreateDownloadInput extends CreateDownloadRequest {
  teamId: string;
}

/** The answer is cached as the download's first state, so following it starts from there. */
export function useCreateDownloadMutation() {
  const { request } = useSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ teamId, ...body }: CreateDownloadInput) => createDownload(request, teamId, body),
    onSuccess: (download) =>
      queryClient.setQueryData(downloadKeys.detail(download.teamId, download.requestId), download),
  });
}
