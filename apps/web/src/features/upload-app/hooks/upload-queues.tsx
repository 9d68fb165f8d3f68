import {
  createContext,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useSession } from '../../../lib/auth/session/session-context';
import { followPageLifecycle, QueueRegistry } from '../utils/queue-registry';

const QueuesContext = createContext<QueueRegistry | null>(null);

/**
 * Holds the upload app's queues for the page's lifetime (app wiring, around the router): follows
 * the connection (offline pauses every queue, online resumes it) and the back/forward cache (a
 * page restored from it continues by itself), asks before the tab closes while
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
    const unfollow = followPageLifecycle(registry);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      unfollow();
      registry.stopAll();
    };
  }, [registry]);

  return <QueuesContext value={registry}>{children}</QueuesContext>;
}

/** The page's queue registry (for the hooks of the upload pages). */
export function useQueueRegistry(): QueueRegistry {
  const registry = useContext(QueuesContext);
  if (registry === null) throw new Error('useCollectionUploads needs <UploadQueuesProvider>');
  return registry;
}
