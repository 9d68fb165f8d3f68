import { DOWNLOAD_POLL_INTERVAL_MS, type Download } from '@raccolta/contracts';
import { useQuery, type Query } from '@tanstack/react-query';
import { isClientError } from '../../../lib/api-client';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { downloadKeys, downloadsPath } from './download-keys';

/** GET /teams/{teamId}/downloads/{downloadId}: only the user who requested it sees it (else 404). */
export function getDownload(
  request: AuthedRequest,
  teamId: string,
  downloadId: string,
  signal?: AbortSignal,
): Promise<Download> {
  return request(downloadsPath(teamId, downloadId), {
    schema: () => import('./download-schemas').then((m) => m.downloadSchema),
    signal,
  });
}

/**
 * The download page follows a download while it is being prepared: parts turn ready one by one.
 * A 4xx will not change by asking again, so it stops there; other failures keep the rhythm.
 */
export function pagePollInterval(query: Query<Download>): number | false {
  if (isClientError(query.state.error)) return false;
  const download = query.state.data;
  return download === undefined || download.status === 'inProgress'
    ? DOWNLOAD_POLL_INTERVAL_MS
    : false;
}

export function useDownloadQuery(teamId: string, downloadId: string) {
  const { request, status } = useSession();
  return useQuery({
    queryKey: downloadKeys.detail(teamId, downloadId),
    queryFn: ({ signal }) => getDownload(request, teamId, downloadId, signal),
    enabled: status === 'signedIn',
    // Opening the page always asks: a cached state from minutes ago would be misleading.
    staleTime: 0,
    refetchInterval: pagePollInterval,
  });
}
