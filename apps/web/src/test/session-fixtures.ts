import type { TokenSet } from '@raccolta/contracts';
import { vi } from 'vitest';
import { SessionManager, type SessionManagerDeps } from '../lib/auth/session/session-manager';
import { storeTokenSet } from '../lib/auth/session/token-storage';

function base64Url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** An unsigned JWT with these claims: the web app decodes, never verifies. */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64Url('{"alg":"none","typ":"JWT"}')}.${base64Url(JSON.stringify(claims))}.sig`;
}

export const ADA = {
  sub: '0195f0c2-7c1a-7000-8000-000000000001',
  email: 'ada@example.com',
  username: 'ada',
};

let counter = 0;

/** A sign-in or refresh answer; every call has new token strings, as the server's would. */
export function tokenSet(overrides: Partial<TokenSet> = {}, claims = ADA): TokenSet {
  counter += 1;
  return {
    IdToken: fakeJwt(claims),
    TokenType: 'Bearer',
    AccessToken: `access-${counter}`,
    ExpiresIn: 3600,
    RefreshToken: `refresh-${counter}`,
    ...overrides,
  };
}

/** Puts a signed-in session in localStorage as a previous visit would have left it. */
export function storeSession(options: { expiresInMs?: number; now?: number } = {}): TokenSet {
  const set = tokenSet({ ExpiresIn: (options.expiresInMs ?? 3_600_000) / 1000 });
  storeTokenSet(localStorage, set, false, options.now ?? Date.now());
  return set;
}

export function createTestSessionManager(deps: Partial<SessionManagerDeps> = {}) {
  const refreshTokens = vi.fn<SessionManagerDeps['refreshTokens']>();
  const signOut = vi.fn<SessionManagerDeps['signOut']>().mockResolvedValue(undefined);
  const manager = new SessionManager({
    storage: localStorage,
    refreshTokens,
    signOut,
    locks: null,
    events: window,
    ...deps,
  });
  return { manager, refreshTokens, signOut };
}
