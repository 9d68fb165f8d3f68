import { onlineManager, QueryClient, type QueryObserverOptions } from '@tanstack/react-query';
import { isApiError } from './api-client';

const MINUTE = 60_000;
const MAX_RETRIES = 2;

/** Spec §7: a 4xx will not change by asking again; anything else gets at most two retries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.statusCode >= 400 && error.statusCode < 500) return false;
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  // TanStack Query assumes a connection until an offline event: an app started without one (the
  // upload app, from its service worker's cache) would fail every query instead of waiting.
  if (typeof navigator !== 'undefined' && !navigator.onLine) onlineManager.setOnline(false);
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5 * MINUTE, gcTime: 10 * MINUTE, retry: shouldRetry },
    },
  });
}

type CachePreset = Pick<
  QueryObserverOptions,
  'staleTime' | 'gcTime' | 'refetchOnWindowFocus' | 'refetchOnMount'
>;

/** Spec §7 cache settings for the kinds of query that differ from the defaults; spread into useQuery. */
export const queryPresets = {
  /** Collections and files lists. */
  list: {
    staleTime: 5 * MINUTE,
    gcTime: 15 * MINUTE,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
  },
  currentUser: { staleTime: 30 * MINUTE, gcTime: 60 * MINUTE, refetchOnWindowFocus: false },
  member: { staleTime: 10 * MINUTE, gcTime: 30 * MINUTE },
  file: { staleTime: 10 * MINUTE, gcTime: 30 * MINUTE },
  teams: { staleTime: 10 * MINUTE },
  downloadLink: { staleTime: 10 * MINUTE },
} as const satisfies Record<string, CachePreset>;
