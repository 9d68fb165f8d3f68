/** The shapes of the session, apart from session-manager.ts so that file holds only behaviour. */
import type { IdClaims } from './token-storage';

export type SessionStatus = 'signedIn' | 'signedOut';

/**
 * Why the session ended: `user` signed out here, `elsewhere` another tab changed the stored
 * session, `expired` the tokens stopped working. Null while nobody has signed out on this page.
 */
export type SignOutReason = 'user' | 'elsewhere' | 'expired' | null;

export interface SessionSnapshot {
  status: SessionStatus;
  idClaims: IdClaims | null;
  identityProvider: boolean;
  signOutReason: SignOutReason;
}

export interface AccessToken {
  accessToken: string;
  tokenType: string;
}

/** The part of the Web Locks API used here; absent in older browsers and in jsdom. */
export interface LockRequester {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

type StorageEventSource = Pick<Window, 'addEventListener' | 'removeEventListener'>;

export interface SessionManagerDeps {
  storage: Storage;
  refreshTokens: (refreshToken: string) => Promise<unknown>;
  signOut: (accessToken: string) => Promise<void>;
  locks?: LockRequester | null;
  /** Where storage events of other tabs arrive; null in tests that do not need them. */
  events?: StorageEventSource | null;
  now?: () => number;
}

/** One name for every tab of the origin, so only one of them refreshes at a time. */
export const REFRESH_LOCK_NAME = 'raccolta-token-refresh';

export const SIGNED_OUT: SessionSnapshot = {
  status: 'signedOut',
  idClaims: null,
  identityProvider: false,
  signOutReason: null,
};
