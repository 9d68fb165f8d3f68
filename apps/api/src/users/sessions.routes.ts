import {
  revokeOtherSessionsResponseSchema,
  sessionsResponseSchema,
  type Session,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import { deviceParts } from '../auth/devices.js';
import { listSessions, revokeOtherSessions, revokeSession } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import type { SessionsTable } from '../db/database.js';
import { BEARER } from '../http/api-docs.js';

const tags = ['users'];
const security = BEARER;

function presentSession(row: SessionsTable, current: string | undefined): Session {
  return {
    sessionId: row.id,
    ...deviceParts(row.user_agent),
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: new Date(row.last_used_at).toISOString(),
    current: row.id === current,
  };
}

/**
 * The signed-in user's sessions, one per refresh-token family (auth/sessions.ts): listed, signed
 * out one by one, or all but the current one.
 */
export function sessionsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const onRequest = authenticate(ctx);

    app.get(
      '/users/@me/sessions',
      {
        schema: {
          operationId: 'listSessions',
          tags,
          summary: "The signed-in user's live sessions, the most recently used first",
          description:
            'One per sign-in (a refresh-token family), until it is signed out or its refresh token expires. `current` marks the session of the access token that asked.',
          security,
          response: { 200: sessionsResponseSchema },
        },
        onRequest,
      },
      async (request) => {
        const rows = await listSessions(ctx.db, actorOf(request).id, ctx.clock());
        return { sessions: rows.map((row) => presentSession(row, request.sessionId)) };
      },
    );

    app.delete(
      '/users/@me/sessions/:sessionId',
      {
        schema: {
          operationId: 'revokeSession',
          tags,
          summary: 'Sign one session out',
          description:
            "Its refresh token and its access tokens stop working at once (401 invalidAuthorization); the user's other sessions go on. An id that is no live session of the caller's (unknown, ended, another user's) is 404 notFound.",
          errors: ['notFound'],
          security,
          params: z.object({ sessionId: z.string().min(1).max(64) }),
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        await revokeSession(ctx.db, actorOf(request).id, request.params.sessionId, ctx.clock());
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/users/@me/sessions/revoke-others',
      {
        schema: {
          operationId: 'revokeOtherSessions',
          tags,
          summary: 'Sign out everywhere else: every session but the current one ends',
          security,
          response: { 200: revokeOtherSessionsResponseSchema },
        },
        onRequest,
      },
      async (request) => ({
        revoked: await revokeOtherSessions(
          ctx.db,
          actorOf(request).id,
          request.sessionId,
          ctx.clock(),
        ),
      }),
    );
    return Promise.resolve();
  };
}
