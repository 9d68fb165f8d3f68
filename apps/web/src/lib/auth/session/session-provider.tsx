import { QueryClientContext } from '@tanstack/react-query';
import { use, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { createAuthedRequest } from './authed-request';
import { SessionContext, type Session } from './session-context';
import type { SessionManager } from './session-manager';

/** Exposes a SessionManager to React; wipes cached data whenever the session ends. */
export function SessionProvider({
  manager,
  children,
}: {
  manager: SessionManager;
  children: ReactNode;
}) {
  // Absent until a page has loaded it (app/query-layer.tsx): then there is nothing to wipe.
  const queryClient = use(QueryClientContext);
  const snapshot = useSyncExternalStore(manager.subscribe, manager.getSnapshot);

  useEffect(() => manager.start(), [manager]);

  useEffect(() => {
    let previousUser = manager.getSnapshot().idClaims?.sub ?? null;
    return manager.subscribe(() => {
      const user = manager.getSnapshot().idClaims?.sub ?? null;
      // Whoever ends the session (this tab, another tab, a failed refresh), or another account
      // takes its place, nothing of the previous user may stay in memory for the next one.
      if (previousUser !== null && user !== previousUser) queryClient?.clear();
      previousUser = user;
    });
  }, [manager, queryClient]);

  const actions = useMemo(
    () => ({
      signIn: (tokenSet: unknown, identityProvider: boolean) =>
        manager.signIn(tokenSet, identityProvider),
      assertSignedOut: () => manager.assertSignedOut(),
      signOut: () => manager.signOut(),
      getAccessToken: () => manager.getAccessToken(),
      request: createAuthedRequest(manager),
    }),
    [manager],
  );

  const value = useMemo<Session>(() => ({ ...snapshot, ...actions }), [snapshot, actions]);
  return <SessionContext value={value}>{children}</SessionContext>;
}
