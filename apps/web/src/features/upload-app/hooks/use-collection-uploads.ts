import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useSession } from '../../../lib/auth/session/session-context';
import { collectionKeys as fileCollectionKeys, fileKeys } from '../../../lib/files/file-keys';
import { duplicateCheck } from '../../../lib/files/duplicate-check';
import { uploadsEndpoint } from '../api/uploads-endpoint';
import { TusUploadQueue, type UploadEntry } from '../utils/tus-queue';
import { uploadScope } from '../utils/upload-storage';
import { useQueueRegistry } from './upload-queues';

// Apart from the provider, so the tus client loads only with the pages that upload.
export interface CollectionUploads {
  queue: TusUploadQueue;
  entries: readonly UploadEntry[];
  /** Changes whenever the stored (resumable) uploads may have changed. */
  storageVersion: number;
  scope: string;
  /** The `Authorization` header of this queue's requests (an interrupted upload's HEAD too). */
  authorization: () => Promise<string>;
}

/** The upload queue of one collection, for the signed-in user. */
export function useCollectionUploads(teamId: string, collectionId: string): CollectionUploads {
  const registry = useQueueRegistry();
  const { getAccessToken, idClaims, request } = useSession();
  const queryClient = useQueryClient();
  const scope = uploadScope(idClaims?.sub ?? '', collectionId);
  const authorization = async () => {
    const { tokenType, accessToken } = await getAccessToken();
    return `${tokenType} ${accessToken}`;
  };
  const queue = registry.queue(
    scope,
    (online) =>
      new TusUploadQueue({
        endpoint: uploadsEndpoint(teamId, collectionId),
        scope,
        online,
        authorization,
        onUploaded: () => {
          // The file is in the collection: its lists (here and in the team app) show it.
          void queryClient.invalidateQueries({ queryKey: fileKeys.lists(teamId, collectionId) });
          void queryClient.invalidateQueries({ queryKey: fileCollectionKeys.all(teamId) });
        },
        onStorageChange: registry.storageChanged,
        checkDuplicate: duplicateCheck(request, teamId, collectionId),
      }),
  );
  const entries = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  const storageVersion = useSyncExternalStore(
    registry.subscribeStorage,
    registry.getStorageVersion,
  );
  return { queue, entries, storageVersion, scope, authorization };
}
