import { webcrypto } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { TokenSet } from '@raccolta/contracts';
import type { Config } from '../config/config.js';
import { AppError } from '../errors/app-error.js';
import { deriveKey } from './secrets.js';

const AUDIENCE = 'raccolta-web';
const TOKEN_TYPE = 'Bearer';

export interface TokenSubject {
  id: string;
  email: string | null;
  username: string;
  email_verified: number;
  token_version: number;
}

export interface AccessClaims {
  sub: string;
  /** The user's token_version when issued; bumping it revokes every access token at once. */
  sv: number;
  /** The session (refresh-token family) the token belongs to; absent in tokens of before. */
  sid?: string;
}

/**
 * The signing key as a WebCrypto key, imported once per secret: jose imports a raw key again on
 * every call, which tripled the cost of verifying the access token each request carries (28 µs
 * against 83 µs per verification; docs/benchmarks.md, "Authenticated lists under load").
 */
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();

function keyOf(config: Config): Promise<webcrypto.CryptoKey> {
  let key = keys.get(config.secret);
  if (!key) {
    key = webcrypto.subtle.importKey(
      'raw',
      deriveKey(config.secret, 'jwt'),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(config.secret, key);
  }
  return key;
}

/** Signed, short-lived access and ID tokens (HS256 under a key derived from APP_SECRET). */
export async function signTokens(
  config: Config,
  user: TokenSubject,
  nowMs: number,
  sessionId?: string,
): Promise<Pick<TokenSet, 'AccessToken' | 'IdToken' | 'TokenType' | 'ExpiresIn'>> {
  const key = await keyOf(config);
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + config.auth.accessTokenTtlSeconds;
  const base = (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(config.apiPublicUrl)
      .setAudience(AUDIENCE)
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(exp);
  const [AccessToken, IdToken] = await Promise.all([
    base({
      token_use: 'access',
      sv: user.token_version,
      ...(sessionId === undefined ? {} : { sid: sessionId }),
    }).sign(key),
    base({
      token_use: 'id',
      email: user.email,
      email_verified: user.email_verified === 1,
      username: user.username,
    }).sign(key),
  ]);
  return { AccessToken, IdToken, TokenType: TOKEN_TYPE, ExpiresIn: exp - iat };
}

/** Seconds of clock difference forgiven when checking an expiry. */
const CLOCK_TOLERANCE_S = 5;
/**
 * Verifies an access token. Expired → invalidAuthorization, like any other bad token: the client
 * refreshes or signs in again.
 */
export async function verifyAccessToken(
  config: Config,
  token: string,
  nowMs: number,
): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(config), {
      issuer: config.apiPublicUrl,
      audience: AUDIENCE,
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      clockTolerance: CLOCK_TOLERANCE_S,
      // A token without an expiry would live for ever.
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    if (
      payload.token_use !== 'access' ||
      typeof payload.sub !== 'string' ||
      typeof payload.sv !== 'number' ||
      (payload.sid !== undefined && typeof payload.sid !== 'string')
    ) {
      throw new AppError('invalidAuthorization');
    }
    return {
      sub: payload.sub,
      sv: payload.sv,
      ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}),
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JOSEError)
      throw new AppError('invalidAuthorization', { cause: err });
    throw err;
  }
}
