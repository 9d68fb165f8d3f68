import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api-client';
import {
  ADA,
  createTestSessionManager,
  storeSession,
  tokenSet,
} from '../../../test/session-fixtures';
import type { LockRequester } from './session-manager';
import { SessionError } from './token-storage';

const MINUTE = 60_000;

/** One queue shared by the "tabs" of a test, like navigator.locks across an origin. */
function sharedLock(): LockRequester & { names: string[] } {
  let tail: Promise<unknown> = Promise.resolve();
  const names: string[] = [];
  return {
    names,
    request: (name, task) => {
      names.push(name);
      const run = tail.then(task);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('SessionManager', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    localStorage.clear();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('starts from what is stored', () => {
    expect(createTestSessionManager().manager.getSnapshot()).toMatchObject({
      status: 'signedOut',
      idClaims: null,
    });
    storeSession();
    expect(createTestSessionManager().manager.getSnapshot()).toMatchObject({
      status: 'signedIn',
      idClaims: ADA,
    });
  });

  it('clears a stored session whose ID token cannot be decoded', () => {
    storeSession();
    localStorage.setItem('IDToken', 'garbage');
    expect(createTestSessionManager().manager.getSnapshot().status).toBe('signedOut');
    expect(localStorage.length).toBe(0);
  });

  it('signs in, notifies, and refuses a second sign-in', () => {
    const { manager } = createTestSessionManager();
    const listener = vi.fn();
    manager.subscribe(listener);
    expect(manager.signIn(tokenSet(), false)).toEqual(ADA);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(manager.getSnapshot()).toMatchObject({ status: 'signedIn', identityProvider: false });

    const error = (() => {
      try {
        manager.signIn(tokenSet(), false);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).code).toBe('alreadySignedIn');
  });

  it('a sign-in answer with a missing token leaves the user signed out', () => {
    const { manager } = createTestSessionManager();
    const { AccessToken: _missing, ...incomplete } = tokenSet();
    expect(() => manager.signIn(incomplete, false)).toThrow(SessionError);
    expect(manager.getSnapshot().status).toBe('signedOut');
    expect(localStorage.length).toBe(0);
  });

  it('uses the stored access token while it has 5 minutes or more left', async () => {
    const stored = storeSession({ expiresInMs: 6 * MINUTE });
    const { manager, refreshTokens } = createTestSessionManager();
    expect(await manager.getAccessToken()).toEqual({
      accessToken: stored.AccessToken,
      tokenType: 'Bearer',
    });
    expect(refreshTokens).not.toHaveBeenCalled();
  });

  it('refreshes first when under 5 minutes are left, once for concurrent calls', async () => {
    const stored = storeSession({ expiresInMs: 4 * MINUTE });
    const { manager, refreshTokens } = createTestSessionManager();
    const fresh = tokenSet();
    refreshTokens.mockResolvedValue(fresh);

    const tokens = await Promise.all([manager.getAccessToken(), manager.getAccessToken()]);
    expect(tokens.map((t) => t.accessToken)).toEqual([fresh.AccessToken, fresh.AccessToken]);
    expect(refreshTokens).toHaveBeenCalledTimes(1);
    expect(refreshTokens).toHaveBeenCalledWith(stored.RefreshToken);
    expect(localStorage.getItem('RefreshToken')).toBe(fresh.RefreshToken);
    expect(Number(localStorage.getItem('ExpiresAt'))).toBeGreaterThan(Date.now() + 59 * MINUTE);
  });

  it('keeps the session when the refresh fails for lack of a network', async () => {
    storeSession({ expiresInMs: 4 * MINUTE });
    const { manager, refreshTokens } = createTestSessionManager();
    refreshTokens.mockRejectedValue(new ApiError(0, 'noConnection'));

    const error = await rejection(manager.getAccessToken());
    expect(error).toMatchObject({ errorCode: 'noConnection' });
    expect(manager.getSnapshot().status).toBe('signedIn');
    expect(localStorage.getItem('AccessToken')).not.toBeNull();
  });

  it.each([
    ['a 401', new ApiError(401, 'invalidAuthorization')],
    ['a server error', new ApiError(500, 'generic')],
  ])('signs out when the refresh fails with %s', async (_label, failure) => {
    storeSession({ expiresInMs: 4 * MINUTE });
    const { manager, refreshTokens } = createTestSessionManager();
    refreshTokens.mockRejectedValue(failure);

    expect(await rejection(manager.getAccessToken())).toBe(failure);
    expect(manager.getSnapshot()).toMatchObject({ status: 'signedOut', signOutReason: 'expired' });
    expect(localStorage.length).toBe(0);
  });

  it('signs out when the refresh answer lacks tokens', async () => {
    storeSession({ expiresInMs: 4 * MINUTE });
    const { manager, refreshTokens } = createTestSessionManager();
    refreshTokens.mockResolvedValue({ TokenType: 'Bearer' });
    const error = await rejection(manager.getAccessToken());
    expect((error as SessionError).code).toBe('tokensMissing');
    expect(manager.getSnapshot().status).toBe('signedOut');
    expect(localStorage.length).toBe(0);
  });

  it('lets one tab refresh and the other use its tokens, never reusing a rotated token', async () => {
    const stored = storeSession({ expiresInMs: 4 * MINUTE });
    const locks = sharedLock();
    const tabA = createTestSessionManager({ locks });
    const tabB = createTestSessionManager({ locks });
    const fresh = tokenSet();
    tabA.refreshTokens.mockResolvedValue(fresh);
    tabB.refreshTokens.mockRejectedValue(new ApiError(401, 'invalidAuthorization'));

    const [a, b] = await Promise.all([
      tabA.manager.getAccessToken(),
      tabB.manager.getAccessToken(),
    ]);
    expect(a.accessToken).toBe(fresh.AccessToken);
    expect(b.accessToken).toBe(fresh.AccessToken);
    expect(tabA.refreshTokens).toHaveBeenCalledWith(stored.RefreshToken);
    expect(tabB.refreshTokens).not.toHaveBeenCalled();
    expect(locks.names).toEqual(['raccolta-token-refresh', 'raccolta-token-refresh']);
  });

  it('drops a refresh answer that arrives after the user signed out', async () => {
    storeSession({ expiresInMs: 4 * MINUTE });
    const { manager, refreshTokens } = createTestSessionManager();
    let answer!: (value: unknown) => void;
    refreshTokens.mockReturnValue(new Promise((resolve) => (answer = resolve)));

    const pending = manager.getAccessToken();
    await Promise.resolve();
    localStorage.clear(); // another tab signed out meanwhile
    answer(tokenSet());
    expect(await rejection(pending)).toMatchObject({ errorCode: 'authorizationRequired' });
    expect(localStorage.length).toBe(0);
    expect(manager.getSnapshot().status).toBe('signedOut');
  });

  it('refreshes in the background when under 15 minutes are left', async () => {
    vi.useFakeTimers();
    storeSession({ expiresInMs: 16 * MINUTE });
    const { manager, refreshTokens } = createTestSessionManager();
    refreshTokens.mockResolvedValue(tokenSet());
    const stop = manager.start();

    await vi.advanceTimersByTimeAsync(MINUTE - 1000);
    expect(refreshTokens).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1001);
    expect(refreshTokens).toHaveBeenCalledTimes(1);
    // The new tokens last an hour: the next background refresh is 45 minutes away.
    await vi.advanceTimersByTimeAsync(44 * MINUTE);
    expect(refreshTokens).toHaveBeenCalledTimes(1);
    stop();
  });

  it('signs out on the server with the access token, then clears everything', async () => {
    const stored = storeSession();
    const { manager, signOut } = createTestSessionManager();
    await manager.signOut();
    expect(signOut).toHaveBeenCalledWith(stored.AccessToken);
    expect(localStorage.length).toBe(0);
    expect(manager.getSnapshot()).toMatchObject({ status: 'signedOut', signOutReason: 'user' });
  });

  it('clears the tokens even when the server refuses the sign-out', async () => {
    storeSession();
    const { manager, signOut } = createTestSessionManager();
    signOut.mockRejectedValue(new ApiError(500, 'generic'));
    await manager.signOut();
    expect(console.warn).toHaveBeenCalledWith('Cannot sign out correctly', 500);
    expect(localStorage.length).toBe(0);
    expect(manager.getSnapshot().status).toBe('signedOut');
  });

  it('follows sign-outs and sign-ins of other tabs', () => {
    const { manager } = createTestSessionManager();
    const stop = manager.start();
    storeSession();
    window.dispatchEvent(
      new StorageEvent('storage', { key: 'AccessToken', storageArea: localStorage }),
    );
    expect(manager.getSnapshot()).toMatchObject({ status: 'signedIn', idClaims: ADA });

    localStorage.clear();
    window.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: localStorage }));
    expect(manager.getSnapshot()).toMatchObject({
      status: 'signedOut',
      signOutReason: 'elsewhere',
    });
    stop();
  });

  it('ends the session on a 401 only if the refused token is still the stored one', () => {
    const stored = storeSession();
    const { manager } = createTestSessionManager();
    manager.handleUnauthorized('an older token');
    expect(manager.getSnapshot().status).toBe('signedIn');
    manager.handleUnauthorized(stored.AccessToken);
    expect(manager.getSnapshot().status).toBe('signedOut');
    expect(localStorage.length).toBe(0);
  });

  it('answers authorizationRequired when asked for a token while signed out', async () => {
    const { manager } = createTestSessionManager();
    expect(await rejection(manager.getAccessToken())).toMatchObject({
      statusCode: 401,
      errorCode: 'authorizationRequired',
    });
  });
});
