import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { findUserById, type UserRow } from '../users/users.repository.js';
import { isSessionRevoked } from './sessions.js';
import { verifyAccessToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by `authenticate` on routes that require one. */
    actor?: UserRow;
    /** The session (refresh-token family) of the actor's access token, when it names one. */
    sessionId?: string;
  }
}

/** RFC 6750: the scheme, one space, the token (token68 characters), nothing else. */
const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/** Reads `Authorization: Bearer <access token>`; null when the header is absent. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const token = BEARER.exec(header)?.[1];
  if (!token) throw new AppError('invalidAuthorization');
  return token;
}

/**
 * The user and session of a valid, current access token: signed by us, not expired, of the
 * user's current token version (sign-out and password changes bump it), of a session not signed
 * out on its own (sessions.ts, revokeSession). Anything else → 401 invalidAuthorization.
 */
export async function sessionOfAccessToken(
  ctx: AppContext,
  token: string,
): Promise<{ user: UserRow; sessionId: string | undefined }> {
  const claims = await verifyAccessToken(ctx.config, token, ctx.clock());
  const user = await findUserById(ctx.db, claims.sub);
  if (!user || user.token_version !== claims.sv) throw new AppError('invalidAuthorization');
  if (claims.sid !== undefined && (await isSessionRevoked(ctx.db, user.id, claims.sid)))
    throw new AppError('invalidAuthorization');
  return { user, sessionId: claims.sid };
}

/** The user of a valid, current access token (sessionOfAccessToken). */
export async function userOfAccessToken(ctx: AppContext, token: string): Promise<UserRow> {
  return (await sessionOfAccessToken(ctx, token)).user;
}

/**
 * The onRequest hook of every route that needs a signed-in user: missing token → 401
 * authorizationRequired; a bad, expired or revoked one (sign-out, password change) → 401
 * invalidAuthorization.
 */
export function authenticate(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request);
    if (!token) throw new AppError('authorizationRequired');
    const { user, sessionId } = await sessionOfAccessToken(ctx, token);
    request.actor = user;
    if (sessionId !== undefined) request.sessionId = sessionId;
  };
}

/** The actor set by `authenticate`; a route without the hook is a programming error. */
export function actorOf(request: FastifyRequest): UserRow {
  if (!request.actor) throw new Error('route is missing the authenticate hook');
  return request.actor;
}
