import { formatLocalTime } from '@raccolta/contracts';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';
import { downloadsPath } from './download-keys';

/**
 * GET …/downloads/{downloadId}/download (a download in one part) or …/parts/{partId}/download:
 * a short-lived link that works without the Authorization header. `localTime` makes the server
 * put the user's local time before the saved file's name (spec §2 Download page).
 */
export async function getDownloadLink(
  request: AuthedRequest,
  target: { teamId: string; downloadId: string; partId?: number },
  now: Date = new Date(),
): Promise<string> {
  const query = new URLSearchParams({ localTime: formatLocalTime(now) });
  const path = `${downloadsPath(target.teamId, target.downloadId, target.partId)}/download`;
  const { url } = await request(`${path}?${query.toString()}`, {
    schema: () => import('./download-schemas').then((m) => m.downloadLinkResponseSchema),
  });
  return url;
}
