import type { TokenSet } from '@raccolta/contracts';

/** Spec §3: the session lives in localStorage under exactly these names. */
export const TOKEN_KEYS = {
  idToken: 'IDToken',
  tokenType: 'TokenType',
  accessToken: 'AccessToken',
  refreshToken: 'RefreshToken',
  expiresAt: 'ExpiresAt',
  identityProvider: 'IdentityProvider',
} as const;

const ALL_TOKEN_KEYS: readonly string[] = Object.values(TOKEN_KEYS);

export function isTokenKey(key: string | null): boolean {
  // `null` is what a storage event carries when another tab called localStorage.clear().
  return key === null || ALL_TOKEN_KEYS.includes(key);
}

/**
 * A session problem found on this side of the wire (spec §5 "Tokens", §8). `tokensMissing` is a
 * contracts validation key; the others are texts of the web app.
 */
export type SessionErrorCode =
  'tokensMissing' | 'invalidIdToken' | 'alreadySignedIn' | 'oauthStateMismatch';

export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly code: SessionErrorCode;

  constructor(code: SessionErrorCode) {
    super(`Session error ${code}`);
    this.code = code;
  }
}

export function isSessionError(value: unknown): value is SessionError {
  return value instanceof SessionError;
}

/** What the web app reads from the ID token; the server verifies it, the client only displays it. */
export interface IdClaims {
  sub: string;
  email?: string;
  username?: string;
}

// The session code runs on every page, a visitor's first one included, so it checks its few
// shapes by hand instead of downloading Zod; token-storage.test.ts holds these checks to the
// contracts' tokenSetSchema.

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isToken = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The contracts' tokenSetSchema, by hand: three tokens, a positive whole ExpiresIn, maybe a refresh token. */
export function parseTokenSet(answer: unknown): TokenSet | null {
  if (!isRecord(answer)) return null;
  const { IdToken, TokenType, AccessToken, ExpiresIn, RefreshToken } = answer;
  if (!isToken(IdToken) || !isToken(TokenType) || !isToken(AccessToken)) return null;
  if (typeof ExpiresIn !== 'number' || !Number.isSafeInteger(ExpiresIn) || ExpiresIn <= 0) {
    return null;
  }
  if (RefreshToken !== undefined && !isToken(RefreshToken)) return null;
  const tokenSet: TokenSet = { IdToken, TokenType, AccessToken, ExpiresIn };
  if (RefreshToken !== undefined) tokenSet.RefreshToken = RefreshToken;
  return tokenSet;
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const bytes = Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** The payload of a JWT, not verified. Throws SessionError('invalidIdToken') when it is not one. */
export function decodeIdToken(token: string): IdClaims {
  const parts = token.split('.');
  const payload = parts.length === 3 ? parts[1] : undefined;
  try {
    if (payload === undefined || payload === '') throw new Error('not a JWT');
    const parsed: unknown = JSON.parse(base64UrlDecode(payload));
    if (!isRecord(parsed) || !isToken(parsed.sub)) throw new Error('no subject');
    const claims: IdClaims = { sub: parsed.sub };
    // Anything but a string is left out, as if absent: the client only displays these.
    if (typeof parsed.email === 'string') claims.email = parsed.email;
    if (typeof parsed.username === 'string') claims.username = parsed.username;
    return claims;
  } catch {
    throw new SessionError('invalidIdToken');
  }
}

export interface StoredTokens {
  idToken: string;
  tokenType: string;
  accessToken: string;
  refreshToken: string | null;
  /** Epoch milliseconds when the access token expires. */
  expiresAt: number;
  /** Signed in through an external identity provider (social sign-in). */
  identityProvider: boolean;
}

type ReadableStorage = Pick<Storage, 'getItem'>;
type WritableStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function safeGet(storage: ReadableStorage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The stored session, or null when any required part is missing. A partial set is not cleared
 * here: another tab may be writing it key by key at this very moment.
 */
export function readStoredTokens(storage: ReadableStorage): StoredTokens | null {
  const idToken = safeGet(storage, TOKEN_KEYS.idToken);
  const tokenType = safeGet(storage, TOKEN_KEYS.tokenType);
  const accessToken = safeGet(storage, TOKEN_KEYS.accessToken);
  const expiresAt = Number(safeGet(storage, TOKEN_KEYS.expiresAt) ?? Number.NaN);
  if (!idToken || !tokenType || !accessToken || !Number.isFinite(expiresAt)) return null;
  return {
    idToken,
    tokenType,
    accessToken,
    refreshToken: safeGet(storage, TOKEN_KEYS.refreshToken) || null,
    expiresAt,
    identityProvider: safeGet(storage, TOKEN_KEYS.identityProvider) === 'true',
  };
}

export function clearStoredTokens(storage: Pick<Storage, 'removeItem'>): void {
  for (const key of ALL_TOKEN_KEYS) {
    try {
      storage.removeItem(key);
    } catch {
      // Blocked storage holds nothing to clear.
    }
  }
}

/**
 * Validates a sign-in, new-password, OAuth or refresh answer and stores it. An answer missing a
 * token, or whose ID token cannot be decoded, resets the session (spec §5) and throws.
 */
export function storeTokenSet(
  storage: WritableStorage,
  answer: unknown,
  identityProvider: boolean,
  now: number,
): { tokens: StoredTokens; claims: IdClaims } {
  const tokenSet = parseTokenSet(answer);
  if (tokenSet === null) {
    clearStoredTokens(storage);
    throw new SessionError('tokensMissing');
  }
  let claims: IdClaims;
  try {
    claims = decodeIdToken(tokenSet.IdToken);
  } catch (error) {
    clearStoredTokens(storage);
    throw error;
  }
  // A refresh answer may leave the refresh token out; the one already stored stays valid then.
  const refreshToken = tokenSet.RefreshToken ?? safeGet(storage, TOKEN_KEYS.refreshToken) ?? null;
  const tokens: StoredTokens = {
    idToken: tokenSet.IdToken,
    tokenType: tokenSet.TokenType,
    accessToken: tokenSet.AccessToken,
    refreshToken,
    expiresAt: now + tokenSet.ExpiresIn * 1000,
    identityProvider,
  };
  storage.setItem(TOKEN_KEYS.idToken, tokens.idToken);
  storage.setItem(TOKEN_KEYS.tokenType, tokens.tokenType);
  if (refreshToken === null) storage.removeItem(TOKEN_KEYS.refreshToken);
  else storage.setItem(TOKEN_KEYS.refreshToken, refreshToken);
  storage.setItem(TOKEN_KEYS.expiresAt, String(tokens.expiresAt));
  storage.setItem(TOKEN_KEYS.identityProvider, String(identityProvider));
  // Written last: after a sign-in, tabs reading on every storage event see a whole set only from here.
  storage.setItem(TOKEN_KEYS.accessToken, tokens.accessToken);
  return { tokens, claims };
}
