import { ApiError, isApiError } from '../../api-client';
import { proactiveRefreshDelay, refreshNeed, satisfies } from './refresh-policy';
import {
  clearStoredTokens,
  decodeIdToken,
  isTokenKey,
  readStoredTokens,
  SessionError,
  storeTokenSet,
  type IdClaims,
  type StoredTokens,
} from './token-storage';
import {
  REFRESH_LOCK_NAME,
  SIGNED_OUT,
  type AccessToken,
  type SessionManagerDeps,
  type SessionSnapshot,
  type SignOutReason,
} from './session-types';

export type {
  AccessToken,
  LockRequester,
  SessionManagerDeps,
  SessionSnapshot,
  SessionStatus,
  SignOutReason,
} from './session-types';

function sameClaims(a: IdClaims | null, b: IdClaims | null): boolean {
  return a?.sub === b?.sub && a?.email === b?.email && a?.username === b?.username;
}

/**
 * The browser session of spec §4: tokens in localStorage, refreshed before calls and in the
 * background, shared by every tab. Plain TypeScript so it works outside React (query functions)
 * and is tested without rendering.
 */
export class SessionManager {
  private snapshot: SessionSnapshot = SIGNED_OUT;
  private readonly listeners = new Set<() => void>();
  private refreshing: Promise<StoredTokens> | null = null;
  private signingOut: Promise<void> | null = null;
  private signOutInProgress = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastRefreshAt: number | null = null;
  private running = false;
  private readonly now: () => number;

  constructor(private readonly deps: SessionManagerDeps) {
    this.now = deps.now ?? (() => Date.now());
    this.syncFromStorage('expired');
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SessionSnapshot => this.snapshot;

  /** Starts following other tabs and the background refresh; returns the matching stop. */
  start(): () => void {
    if (!this.running) {
      this.running = true;
      this.deps.events?.addEventListener('storage', this.onStorage);
      this.syncFromStorage('elsewhere');
    }
    return () => this.stop();
  }

  stop(): void {
    this.running = false;
    this.deps.events?.removeEventListener('storage', this.onStorage);
    this.clearTimer();
  }

  /** Spec §4: sign-in is refused while a user is already signed in. */
  assertSignedOut(): void {
    this.syncFromStorage('elsewhere');
    if (this.snapshot.status === 'signedIn') throw new SessionError('alreadySignedIn');
  }

  /** Stores the tokens of a sign-in answer; throws SessionError when they are missing or broken. */
  signIn(answer: unknown, identityProvider: boolean): IdClaims {
    this.assertSignedOut();
    const { claims } = storeTokenSet(this.deps.storage, answer, identityProvider, this.now());
    this.lastRefreshAt = null;
    this.setSnapshot({
      status: 'signedIn',
      idClaims: claims,
      identityProvider,
      signOutReason: null,
    });
    this.schedule();
    return claims;
  }

  /**
   * Revokes the sessions on the server, then clears the local tokens whatever the server said
   * (spec §4, §7). Concurrent calls share one sign-out.
   */
  signOut(): Promise<void> {
    this.signingOut ??= this.performSignOut().finally(() => {
      this.signingOut = null;
    });
    return this.signingOut;
  }

  /** The access token for an authenticated call, refreshed first when it expires within 5 min. */
  async getAccessToken(): Promise<AccessToken> {
    const tokens = readStoredTokens(this.deps.storage);
    if (tokens === null) {
      this.markSignedOut('expired');
      throw new ApiError(401, 'authorizationRequired');
    }
    const fresh =
      refreshNeed(tokens.expiresAt, this.now()) === 'required'
        ? await this.refresh('required')
        : tokens;
    return { accessToken: fresh.accessToken, tokenType: fresh.tokenType };
  }

  /**
   * An authenticated call was refused with 401: the session is over, unless the stored tokens
   * changed since that call was sent (another tab signed in again meanwhile).
   */
  handleUnauthorized(usedAccessToken: string): void {
    const tokens = readStoredTokens(this.deps.storage);
    if (tokens !== null && tokens.accessToken !== usedAccessToken) return;
    clearStoredTokens(this.deps.storage);
    this.markSignedOut('expired');
  }

  /** Refreshes unless the stored tokens already satisfy `wanted`; one refresh at a time per tab. */
  refresh(wanted: 'proactive' | 'required'): Promise<StoredTokens> {
    this.refreshing ??= this.withLock(() => this.refreshInsideLock(wanted)).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private withLock<T>(task: () => Promise<T>): Promise<T> {
    const locks = this.deps.locks;
    return locks ? locks.request(REFRESH_LOCK_NAME, task) : task();
  }

  private async refreshInsideLock(wanted: 'proactive' | 'required'): Promise<StoredTokens> {
    // Read again inside the lock: another tab may have refreshed while this one waited for it,
    // and presenting the refresh token it rotated would make the server revoke the session.
    const current = readStoredTokens(this.deps.storage);
    if (current === null) {
      this.markSignedOut('elsewhere');
      throw new ApiError(401, 'authorizationRequired');
    }
    if (satisfies(current.expiresAt, this.now(), wanted)) {
      this.syncFromStorage('elsewhere');
      return current;
    }
    if (current.refreshToken === null) {
      this.endSession();
      throw new ApiError(401, 'invalidAuthorization');
    }

    this.lastRefreshAt = this.now();
    let answer: unknown;
    try {
      answer = await this.deps.refreshTokens(current.refreshToken);
    } catch (error) {
      // Spec §4: a network error keeps the session (the tokens may still be good); any other
      // failure, a 401 included, signs the user out.
      if (!(isApiError(error) && error.errorCode === 'noConnection')) this.endSession();
      throw error;
    }

    // Signed out (here or in another tab) while the answer was on its way: do not bring it back.
    const stillCurrent = readStoredTokens(this.deps.storage);
    if (stillCurrent?.refreshToken !== current.refreshToken) {
      this.syncFromStorage('elsewhere');
      if (stillCurrent === null) throw new ApiError(401, 'authorizationRequired');
      return stillCurrent;
    }

    try {
      const { tokens, claims } = storeTokenSet(
        this.deps.storage,
        answer,
        current.identityProvider,
        this.now(),
      );
      this.setSignedIn(claims, tokens.identityProvider);
      this.schedule();
      return tokens;
    } catch (error) {
      this.markSignedOut('expired');
      throw error;
    }
  }

  private async performSignOut(): Promise<void> {
    this.signOutInProgress = true;
    try {
      let accessToken: string | null = null;
      if (readStoredTokens(this.deps.storage) !== null) {
        try {
          accessToken = (await this.getAccessToken()).accessToken;
        } catch {
          accessToken = readStoredTokens(this.deps.storage)?.accessToken ?? null;
        }
      }
      if (accessToken !== null) {
        try {
          await this.deps.signOut(accessToken);
        } catch (error) {
          console.warn('Cannot sign out correctly', isApiError(error) ? error.statusCode : error);
        }
      }
      this.endSession();
    } finally {
      this.signOutInProgress = false;
    }
  }

  private endSession(): void {
    clearStoredTokens(this.deps.storage);
    this.markSignedOut('expired');
  }

  private readonly onStorage = (event: StorageEvent): void => {
    if (event.storageArea !== null && event.storageArea !== this.deps.storage) return;
    if (!isTokenKey(event.key)) return;
    this.syncFromStorage('elsewhere');
  };

  /** Aligns the snapshot with what is stored, e.g. after another tab signed in, out or refreshed. */
  private syncFromStorage(reasonIfGone: SignOutReason): void {
    const tokens = readStoredTokens(this.deps.storage);
    if (tokens === null) {
      this.markSignedOut(reasonIfGone);
      return;
    }
    let claims: IdClaims;
    try {
      claims = decodeIdToken(tokens.idToken);
    } catch {
      this.endSession();
      return;
    }
    this.setSignedIn(claims, tokens.identityProvider);
    this.schedule();
  }

  private setSignedIn(idClaims: IdClaims, identityProvider: boolean): void {
    const current = this.snapshot;
    if (
      current.status === 'signedIn' &&
      current.identityProvider === identityProvider &&
      sameClaims(current.idClaims, idClaims)
    ) {
      return;
    }
    this.setSnapshot({ status: 'signedIn', idClaims, identityProvider, signOutReason: null });
  }

  private markSignedOut(reason: SignOutReason): void {
    this.clearTimer();
    if (this.snapshot.status === 'signedOut') return;
    this.setSnapshot({ ...SIGNED_OUT, signOutReason: this.signOutInProgress ? 'user' : reason });
  }

  private setSnapshot(next: SessionSnapshot): void {
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }

  private schedule(): void {
    this.clearTimer();
    if (!this.running) return;
    const tokens = readStoredTokens(this.deps.storage);
    if (tokens === null) return;
    const delay = proactiveRefreshDelay(tokens.expiresAt, this.now(), this.lastRefreshAt);
    this.timer = setTimeout(() => {
      this.timer = null;
      // A failure already did what it must (sign-out, or nothing on a network error); the
      // minimum interval of proactiveRefreshDelay spaces out the retry.
      this.refresh('proactive').catch(() => {
        if (this.snapshot.status === 'signedIn') this.schedule();
      });
    }, delay);
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
