import { QueryClientContext, type QueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore, type ReactNode } from 'react';

/**
 * TanStack Query arrives with the first page that asks the API for data, not with the landing
 * page, which asks for none: every lazy page and signed-in menu waits for `loadQueryClient()`
 * before it renders (app/page-needs.ts), and QueryLayer provides the client from then on.
 */
let client: QueryClient | null = null;
let loading: Promise<QueryClient> | null = null;
const listeners = new Set<() => void>();

export function loadQueryClient(): Promise<QueryClient> {
  loading ??= import('./query-client').then(
    (module) => {
      client = module.createQueryClient();
      for (const listener of listeners) listener();
      return client;
    },
    (error: unknown) => {
      // A chunk that did not arrive (a dropped connection) is asked for again next time.
      loading = null;
      throw error;
    },
  );
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const currentClient = () => client;

/** The query client once loaded; null before, when nothing rendered can use it. */
export function useLoadedQueryClient(): QueryClient | null {
  return useSyncExternalStore(subscribe, currentClient);
}

/**
 * What QueryClientProvider does (the context for useQuery and the others, the client mounted for
 * focus and online events), for a client that arrives after the first render: the tree below
 * keeps its place when it does.
 */
export function QueryLayer({ children }: { children: ReactNode }) {
  const loaded = useLoadedQueryClient();
  useEffect(() => {
    if (loaded === null) return;
    loaded.mount();
    return () => loaded.unmount();
  }, [loaded]);
  return <QueryClientContext value={loaded ?? undefined}>{children}</QueryClientContext>;
}
