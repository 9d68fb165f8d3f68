import type { ClientConfigResponse } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { clientConfigShape } from './client-config-schema';

export const clientConfigQueryKey = ['client-config'] as const;

export function getClientConfig(signal?: AbortSignal): Promise<ClientConfigResponse> {
  return apiRequest('/client-config', {
    schema: clientConfigShape,
    ...(signal ? { signal } : {}),
  });
}

/** The server's configuration changes only with a restart: asked once per page load. */
export function useClientConfigQuery() {
  return useQuery({
    queryKey: clientConfigQueryKey,
    queryFn: ({ signal }) => getClientConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
