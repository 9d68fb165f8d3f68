import {
  revokeOtherSessionsResponseSchema,
  sessionsResponseSchema,
  type RevokeOtherSessionsResponse,
  type Session,
} from '@raccolta/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/auth/session/session-context';
import type { AuthedRequest } from '../../../lib/auth/session/authed-request';

export const sessionKeys = {
  all: (userId: string) => ['sessions', userId] as const,
};

/** GET /users/@me/sessions: live sessions, the most recently used first. */
export async function getSessions(
  request: AuthedRequest,
  signal?: AbortSignal,
): Promise<Session[]> {
  const answer = await request('/users/@me/sessions', { schema: sessionsResponseSchema, signal });
  return answer.sessions;
}

export function useSessionsQuery() {
  const { request, status, idClaims } = useSession();
  return useQuery({
    queryKey: sessionKeys.all(idClaims?.sub ?? ''),
    queryFn: ({ signal }) => getSessions(request, signal),
    enabled: status === 'signedIn',
    // Other devices sign in and out: opening the page always asks.
    staleTime: 0,
  });
}

function useRefreshSessions() {
  const { idClaims } = useSession();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: sessionKeys.all(idClaims?.sub ?? '') });
}

/** DELETE /users/@me/sessions/{id}: that device is signed out (204). */
export function useRevokeSessionMutation() {
  const { request } = useSession();
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: (sessionId: string) =>
      request(`/users/@me/sessions/${encodeURIComponent(sessionId)}`, {
        method: 'DELETE',
        schema: z.undefined(),
      }),
    onSettled: refresh,
  });
}

/** POST /users/@me/sessions/revoke-others: every device but this one is signed out. */
export function useRevokeOtherSessionsMutation() {
  const { request } = useSession();
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: () =>
      request<RevokeOtherSessionsResponse>('/users/@me/sessions/revoke-others', {
        method: 'POST',
        schema: revokeOtherSessionsResponseSchema,
      }),
    onSettled: refresh,
  });
}
