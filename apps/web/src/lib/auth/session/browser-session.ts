import { postRefreshTokens } from '../refresh-tokens';
import { postSignOut } from '../sign-out';
import { SessionManager, type LockRequester } from './session-manager';

/** A Storage kept in memory, for browsers where localStorage is blocked: the session lasts a page. */
function memoryStorage(): Storage {
  const values = new Map<string, string>();
  return {
    get length() {
      return values.size;
    },
    clear: () => values.clear(),
    getItem: (key) => values.get(key) ?? null,
    key: (index) => [...values.keys()][index] ?? null,
    removeItem: (key) => values.delete(key),
    setItem: (key, value) => values.set(key, value),
  };
}

function browserStorage(): Storage {
  try {
    return window.localStorage;
  } catch {
    return memoryStorage();
  }
}

function browserLocks(): LockRequester | null {
  // Web Locks exist in every current browser, but only in secure contexts (https or localhost).
  if (!('locks' in navigator)) return null;
  const locks = navigator.locks;
  return { request: (name, task) => locks.request(name, () => task()) };
}

export function createBrowserSessionManager(): SessionManager {
  return new SessionManager({
    storage: browserStorage(),
    refreshTokens: (refreshToken) => postRefreshTokens({ refreshToken }),
    signOut: (accessToken) => postSignOut({ accessToken }),
    locks: browserLocks(),
    events: window,
  });
}
