import { createContext, useContext } from 'react';
import type { AuthedRequest } from './authed-request';
import type { AccessToken, SessionSnapshot } from './session-manager';
import type { IdClaims } from './token-storage';

export interface Session extends SessionSnapshot {
  /** Stores the tokens of a sign-in answer; throws SessionError when they are missing or broken. */
  signIn: (tokenSet: unknown, identityProvider: boolean) => IdClaims;
  /** Throws SessionError('alreadySignedIn') when a user is signed in (spec §4). */
  assertSignedOut: () => void;
  /** Revokes the sessions on the server and clears the local tokens and cached data. */
  signOut: () => Promise<void>;
  getAccessToken: () => Promise<AccessToken>;
  /** apiRequest as the signed-in user. */
  request: AuthedRequest;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (value === null) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
