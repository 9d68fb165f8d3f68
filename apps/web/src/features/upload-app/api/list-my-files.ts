import { fileIconKind, type FileListResponse } from '@raccolta/contracts';
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { queryPresets } from '../../../lib/query-client';
import { useSession } from '../../../lib/auth/session/session-context';
import { fileKeys } from '../../../lib/files/file-keys';
import { getFiles } from '../../../lib/files/list-files';

/** How long after its upload a picture without a thumbnail is still worth waiting for. */
const THUMBNAIL_WAIT_MS = 60_000;
const THUMBNAIL_POLL_MS = 3_000;

/** Whether a listed picture of the last minute still waits for the thumbnail its job makes. */
export function awaitsThumbnail(data: InfiniteData<FileListResponse> | undefined, now: number) {
  return (
    data?.pages.some((page) =>
      page.files.some(
        (file) =>
          file.thumbnailUrl === null &&
          fileIconKind(file.contentType) === 'image' &&
          now - Date.parse(file.createdAt) < THUMBNAIL_WAIT_MS,
      ),
    ) ?? false
  );
}

/**
 * GET /teams/{teamId}/collections/{collectionId}/files?creator={me}: what the signed-in user
 * uploaded here, newest first. The same query (and cache entry) as the files screen's Mine view,
 * so a finished upload, which invalidates the collection's lists, refreshes both.
 */
export function useMyFilesQuery(teamId: string, collectionId: string) {
  const { request, status, idClaims } = useSession();
  const userId = idClaims?.sub ?? null;
  const filters = { creator: userId ?? '', sort: 'desc' as const };
  return useInfiniteQuery({
    queryKey: fileKeys.list(teamId, collectionId, filters),
    queryFn: ({ pageParam, signal }) =>
      getFiles(request, teamId, collectionId, filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.pagination.lastKey ?? undefined,
    enabled: status === 'signedIn' && userId !== null,
    ...queryPresets.list,
    // Thumbnails are made by a background job a moment after the upload.
    refetchInterval: (query) =>
      awaitsThumbnail(query.state.data, Date.now()) ? THUMBNAIL_POLL_MS : false,
  });
}
