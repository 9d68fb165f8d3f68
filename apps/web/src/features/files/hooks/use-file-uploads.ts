import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useSession } from '../../../lib/auth/session/session-context';
import { duplicateCheck } from '../../../lib/files/duplicate-check';
import { collectionKeys, fileKeys } from '../../../lib/files/file-keys';
import { uploadFile } from '../api/upload-file';
import { isUploadActive, UploadQueue, type UploadItem } from '../utils/upload-queue';

export interface FileUploads {
  items: readonly UploadItem[];
  /** True while a file is waiting or on its way. */
  busy: boolean;
  add: (files: Iterable<File>) => void;
  retry: (id: number) => void;
  /** Sends a file skipped because the collection holds the same bytes. */
  uploadAnyway: (id: number) => void;
  clearFinished: () => void;
}

/**
 * The uploads of one collection, one file at a time. The screen is keyed by team and collection,
 * so the ids never change under a queue; leaving the screen cancels what is left.
 */
export function useFileUploads(teamId: string, collectionId: string): FileUploads {
  const { getAccessToken, request } = useSession();
  const queryClient = useQueryClient();
  const [queue] = useState(
    () =>
      new UploadQueue({
        upload: async (file, onProgress, signal) =>
          uploadFile({
            teamId,
            collectionId,
            file,
            // Fresh for every file: a long batch may outlive the token it started with.
            token: await getAccessToken(),
            onProgress,
            signal,
          }),
        check: duplicateCheck(request, teamId, collectionId),
        onUploaded: () => {
          void queryClient.invalidateQueries({ queryKey: fileKeys.lists(teamId, collectionId) });
          void queryClient.invalidateQueries({ queryKey: collectionKeys.all(teamId) });
        },
      }),
  );
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  const busy = items.some((item) => isUploadActive(item.status));

  useEffect(() => () => queue.cancelAll(), [queue]);

  // Closing the tab would lose what is still on its way: the browser asks first.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  return {
    items,
    busy,
    add: (files) => queue.add(files),
    retry: (id) => queue.retry(id),
    uploadAnyway: (id) => queue.uploadAnyway(id),
    clearFinished: () => queue.clearFinished(),
  };
}
