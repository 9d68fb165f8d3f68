import { clientConfigResponseSchema, type ClientConfigResponse } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const clientConfigQueryKey = ['client-config'] as const;

export function getClientConfig(signal?: AbortSignal): Promise<ClientConfigResponse> {
  return apiRequest('/client-config', {
    schema: clientConfigResponseSchema,
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
