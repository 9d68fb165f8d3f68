import { apiBaseUrl } from '../../../config';
import { collectionPath } from '../../../lib/files/file-keys';

/**
 * POST /teams/{teamId}/collections/{collectionId}/uploads, the tus endpoint, as an absolute URL:
 * tus-js-client resolves the Location of a new upload against it and stores the result.
 */
export function uploadsEndpoint(
  teamId: string,
  collectionId: string,
  base: string = window.location.href,
): string {
  return new URL(`${apiBaseUrl}${collectionPath(teamId, collectionId)}/uploads`, base).href;
}
