import type { ClientConfigResponse } from '@raccolta/contracts';
import { useEffect, useSyncExternalStore } from 'react';
import { apiRequest } from '../../api-client';
import { clientConfigShape } from './client-config-schema';

export function getClientConfig(signal?: AbortSignal): Promise<ClientConfigResponse> {
  return apiRequest('/client-config', {
    schema: clientConfigShape,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The server's configuration changes only with a restart: asked once per page load, when a
 * component first needs it (on every page: the feature flags, the analytics settings), without
 * the query library, which the landing page does without. A failed request is asked again by the
 * next component that needs it.
 */
let config: ClientConfigResponse | undefined;
let request: Promise<void> | null = null;
const listeners = new Set<() => void>();

function fetchClientConfig(): void {
  request ??= getClientConfig().then(
    (answer) => {
      config = answer;
      for (const listener of listeners) listener();
    },
    () => {
      request = null;
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const current = () => config;

/** The client configuration, undefined while it loads or when it could not be loaded. */
export function useClientConfig(): ClientConfigResponse | undefined {
  const value = useSyncExternalStore(subscribe, current);
  useEffect(() => {
    if (config === undefined) fetchClientConfig();
  }, []);
  return value;
}
