import { statusResponseSchema, type StatusResponse } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const statusQueryKey = ['status'] as const;

export function getStatus(signal?: AbortSignal): Promise<StatusResponse> {
  return apiRequest('/status', { schema: statusResponseSchema, ...(signal ? { signal } : {}) });
}

export function useStatusQuery() {
  return useQuery({
    queryKey: statusQueryKey,
    queryFn: ({ signal }) => getStatus(signal),
    // A status page that shows a cached answer would defeat its purpose.
    staleTime: 0,
  });
}
