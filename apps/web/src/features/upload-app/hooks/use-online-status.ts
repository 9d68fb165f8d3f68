import { onlineManager } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { apiBaseUrl } from '../../../config';
import {
  isServerUnreachable,
  reportReachability,
  subscribeReachability,
} from '../../../lib/reachability';

/** How often the upload app asks whether the server answers again while it does not. */
export const REACHABILITY_PROBE_MS = 4_000;

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  const unsubscribe = subscribeReachability(onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
    unsubscribe();
  };
}

function isOnline(): boolean {
  return navigator.onLine && !isServerUnreachable();
}

/**
 * Whether requests get through: false when the browser knows it is offline, and also when the
 * last API request got no answer at all (see lib/reachability), until one does.
 */
export function useOnlineStatus(): boolean {
  return useSyncExternalStore(subscribe, isOnline);
}

/**
 * While the server does not answer, TanStack Query waits (its queries show as paused, not as
 * errors) and the server is asked every few seconds; the first answer resumes everything. The
 * browser's `online` event asks at once.
 */
export function useReachabilityWatch(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;
    const cancel = () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    };
    const probe = async () => {
      try {
        await fetch(`${apiBaseUrl}/status`, { cache: 'no-store' });
        reportReachability(true);
      } catch {
        schedule();
      }
    };
    const schedule = () => {
      if (stopped || timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        void probe();
      }, REACHABILITY_PROBE_MS);
    };
    const sync = () => {
      const online = isOnline();
      onlineManager.setOnline(online);
      // Offline for the browser: its `online` event says when to ask again.
      if (online || !navigator.onLine) cancel();
      else schedule();
    };
    const backOnline = () => void probe();
    const unsubscribe = subscribe(sync);
    window.addEventListener('online', backOnline);
    sync();
    return () => {
      stopped = true;
      cancel();
      unsubscribe();
      window.removeEventListener('online', backOnline);
      onlineManager.setOnline(navigator.onLine);
    };
  }, []);
}
