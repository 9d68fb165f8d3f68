import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../api-client';

/**
 * Not in contracts: GET /auth/providers lists only the providers the server is configured for.
 * The id is kept as a string so a provider added on the server shows up (without an icon).
 */
export const providersResponseSchema = z.object({
  providers: z.array(z.object({ id: z.string().min(1), name: z.string().min(1) })),
});
export type AuthProvider = z.infer<typeof providersResponseSchema>['providers'][number];

export const providersQueryKey = ['auth', 'providers'] as const;

export async function getProviders(signal?: AbortSignal): Promise<AuthProvider[]> {
  const { providers } = await apiRequest('/auth/providers', {
    schema: providersResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return providers;
}

export function useProvidersQuery() {
  return useQuery({
    queryKey: providersQueryKey,
    queryFn: ({ signal }) => getProviders(signal),
    // Server configuration: it does not change while the page is open.
    staleTime: Infinity,
  });
}
