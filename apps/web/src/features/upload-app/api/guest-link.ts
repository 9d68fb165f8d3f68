import {
  guestFileListResponseSchema,
  guestSessionSchema,
  type GuestFileListResponse,
  type GuestSession,
  type OpenUploadLink,
} from '@raccolta/contracts';
import { z } from 'zod';
import { apiBaseUrl } from '../../../config';
import { apiRequest } from '../../../lib/api-client';

/**
 * A guest's calls through an upload link (issue #36): no account, a guest token from opening the
 * link instead. POST /guest/links/{token}/open, GET /guest/files, DELETE /guest/files/{fileId},
 * and tus at /guest/uploads.
 */

export function openUploadLink(
  linkToken: string,
  body: OpenUploadLink,
  signal?: AbortSignal,
): Promise<GuestSession> {
  return apiRequest(`/guest/links/${encodeURIComponent(linkToken)}/open`, {
    method: 'POST',
    body,
    schema: guestSessionSchema,
    ...(signal ? { signal } : {}),
  });
}

export function listGuestFiles(guestToken: string): Promise<GuestFileListResponse> {
  return apiRequest('/guest/files', { schema: guestFileListResponseSchema, token: guestToken });
}

export function deleteGuestFile(guestToken: string, fileId: string): Promise<undefined> {
  return apiRequest(`/guest/files/${encodeURIComponent(fileId)}`, {
    method: 'DELETE',
    schema: z.undefined(),
    token: guestToken,
  });
}

/** The guests' tus endpoint as an absolute URL (tus-js-client resolves Location against it). */
export function guestUploadsEndpoint(base: string = window.location.href): string {
  return new URL(`${apiBaseUrl}/guest/uploads`, base).href;
}
