import type { User } from '@raccolta/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryPresets } from '../query-client';
import { isApiError } from '../api-client';
import type { AuthedRequest } from './session/authed-request';
import { useSession } from './session/session-context';

/** Keyed by the user id, so a cached profile can never be shown to the next user of the tab. */
export function currentUserQueryKey(userId: string | undefined) {
  return ['users', '@me', userId] as const;
}

export function getCurrentUser(request: AuthedRequest, signal?: AbortSignal): Promise<User> {
  return request('/users/@me', {
    schema: () => import('./user-schemas').then((m) => m.meResponseSchema),
    ...(signal ? { signal } : {}),
  });
}

/**
 * Spec §2: a 4xx answer when loading the current user signs the user out. A rate limit (429) says
 * nothing about the account, so it is left out.
 */
export function signsOutOnCurrentUserError(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.statusCode >= 400 &&
    error.statusCode < 500 &&
    error.statusCode !== 429
  );
}

export function useCurrentUser() {
  const session = useSession();
  const { signOut, status } = session;
  const query = useQuery({
    queryKey: currentUserQueryKey(session.idClaims?.sub),
    queryFn: ({ signal }) => getCurrentUser(session.request, signal),
    enabled: status === 'signedIn',
    ...queryPresets.currentUser,
  });

  const { error } = query;
  useEffect(() => {
    if (status === 'signedIn' && signsOutOnCurrentUserError(error)) void signOut();
  }, [error, signOut, status]);

  return query;
}
