import { formatLocalTime } from '@raccolta/contracts';
import { useMutation } from '@tanstack/react-query';
import { useSession } from '../../../lib/auth/session/session-context';
import { startBrowserDownload } from '../../../lib/start-download';
import { getDownloadLink } from '../api/download-link';

export interface DownloadTarget {
  teamId: string;
  downloadId: string;
  /** One part of a download in several; the whole download when absent. */
  partId?: number;
}

/**
 * Fetches a fresh link and starts the browser download (the link lives minutes: never cached).
 * Answers the local time the link was asked at and that moment, from which the server works out
 * the time the saved file's name starts with (`requestedLocalTime`).
 */
export function useStartDownloadMutation() {
  const { request } = useSession();
  return useMutation({
    mutationFn: async (target: DownloadTarget) => {
      const now = new Date();
      startBrowserDownload(await getDownloadLink(request, target, now));
      return { localTime: formatLocalTime(now), at: now.getTime() };
    },
  });
}
