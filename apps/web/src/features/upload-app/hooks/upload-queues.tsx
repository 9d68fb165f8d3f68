import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useSession } from '../../auth';
import { fileCollectionKeys, fileKeys } from '../../files';
import { uploadsEndpoint } from '../api/uploads-endpoint';
import { QueueRegistry } from '../utils/queue-registry';
import { TusUploadQueue, type UploadEntry } from '../utils/tus-queue';
import { uploadScope } from '../utils/upload-storage';

const QueuesContext = createContext<QueueRegistry | null>(null);

/**
 * Holds the upload app's queues for the page's lifetime (app wiring, around the router): follows
 * the connection (offline pauses every queue, online resumes it), asks before the tab closes while
 * something is on its way, and stops everything when the user changes.
 */
export function UploadQueuesProvider({ children }: { children: ReactNode }) {
  const { idClaims } = useSession();
  const userId = idClaims?.sub ?? null;
  // A new registry per user: nothing of one account's uploads goes on under the next one.
  const [state, setState] = useState(() => ({ userId, registry: new QueueRegistry() }));
  let registry = state.registry;
  if (state.userId !== userId) {
    registry = new QueueRegistry();
    setState({ userId, registry });
  }

  const busy = useSyncExternalStore(registry.subscribeBusy, registry.isBusy);
  // Closing the tab stops the uploads: they can be resumed, but only by choosing the files again.
  useEffect(() => {
    if (!busy) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [busy]);

  useEffect(() => {
    const online = () => registry.setOnline(true);
    const offline = () => registry.setOnline(false);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      registry.stopAll();
    };
  }, [registry]);

  return <QueuesContext value={registry}>{children}</QueuesContext>;
}

function useRegistry(): QueueRegistry {
  const registry = useContext(QueuesContext);
  if (registry === null) throw new Error('useCollectionUploads needs <UploadQueuesProvider>');
  return registry;
}

export interface CollectionUploads {
  queue: TusUploadQueue;
  entries: readonly UploadEntry[];
  /** Changes whenever the stored (resumable) uploads may have changed. */
  storageVersion: number;
  scope: string;
}

/** The upload queue of one collection, for the signed-in user. */
export function useCollectionUploads(teamId: string, collectionId: string): CollectionUploads {
  const registry = useRegistry();
  const { getAccessToken, idClaims } = useSession();
  const queryClient = useQueryClient();
  const scope = uploadScope(idClaims?.sub ?? '', collectionId);
  const queue = registry.queue(
    scope,
    (online) =>
      new TusUploadQueue({
        endpoint: uploadsEndpoint(teamId, collectionId),
        scope,
        online,
        authorization: async () => {
          const { tokenType, accessToken } = await getAccessToken();
          return `${tokenType} ${accessToken}`;
        },
        onUploaded: () => {
          // The file is in the collection: its lists (here and in the team app) show it.
          void queryClient.invalidateQueries({ queryKey: fileKeys.lists(teamId, collectionId) });
          void queryClient.invalidateQueries({ queryKey: fileCollectionKeys.all(teamId) });
        },
        onStorageChange: registry.storageChanged,
      }),
  );
  const entries = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  const storageVersion = useSyncExternalStore(
    registry.subscribeStorage,
    registry.getStorageVersion,
  );
  return { queue, entries, storageVersion, scope };
}
