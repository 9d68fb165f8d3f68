import { useQueries } from '@tanstack/react-query';

/**
 * How far an interrupted upload got and until when the server keeps it (epoch ms, from tus's
 * Upload-Expires); `gone` when the server no longer has it (expired, or cancelled elsewhere).
 */
export type UploadOffset =
  | { kind: 'offset'; bytes: number; expiresAt: number | null }
  | { kind: 'gone' }
  | { kind: 'unknown' };

/**
 * tus HEAD of an upload: its Upload-Offset. 404 and 410 mean the server dropped it (it expired,
 * or it was cancelled elsewhere); anything else, a network failure included, leaves it unknown.
 */
export async function getUploadOffset(
  uploadUrl: string,
  authorization: string,
  signal?: AbortSignal,
): Promise<UploadOffset> {
  let response: Response;
  try {
    response = await fetch(uploadUrl, {
      method: 'HEAD',
      headers: { Authorization: authorization, 'Tus-Resumable': '1.0.0' },
      cache: 'no-store',
      signal: signal ?? null,
    });
  } catch {
    return { kind: 'unknown' };
  }
  if (response.status === 404 || response.status === 410) return { kind: 'gone' };
  const bytes = Number(response.headers.get('Upload-Offset'));
  const expires = Date.parse(response.headers.get('Upload-Expires') ?? '');
  return response.ok && Number.isInteger(bytes) && bytes >= 0
    ? { kind: 'offset', bytes, expiresAt: Number.isNaN(expires) ? null : expires }
    : { kind: 'unknown' };
}

export const uploadOffsetKey = (uploadUrl: string) => ['uploads', 'offset', uploadUrl] as const;

/** The offsets of several uploads, asked once each while the list shows them. */
export function useUploadOffsets(
  uploadUrls: readonly string[],
  authorization: () => Promise<string>,
): Map<string, UploadOffset> {
  const results = useQueries({
    queries: uploadUrls.map((url) => ({
      queryKey: uploadOffsetKey(url),
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        getUploadOffset(url, await authorization(), signal),
      staleTime: 30_000,
      retry: false,
    })),
  });
  const offsets = new Map<string, UploadOffset>();
  uploadUrls.forEach((url, index) => {
    const data = results[index]?.data;
    if (data !== undefined) offsets.set(url, data);
  });
  return offsets;
}
