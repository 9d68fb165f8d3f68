import { idSchema, teamRefSchema } from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { BEARER } from '../http/api-docs.js';
import {
  markCollectionRead,
  markCollectionUnread,
  markFileRead,
  markFileUnread,
} from './read-marks.service.js';

const collectionParams = z.object({ teamId: teamRefSchema, collectionId: idSchema });
const fileParams = collectionParams.extend({ fileId: idSchema });
const ACCESS_ERRORS =
  'Any member who sees the file or collection may set its own marks; nobody else sees them. authorizationRequired/invalidAuthorization (401); notFound (404) when the caller is not an active member of the team, or the collection or file is not in it or not visible to the caller (an uploader sees the collections it created and the collaborative ones).';

/**
 * The caller's read marks, set and cleared by hand: `PUT …/read` marks read, `DELETE …/read`
 * unread. Both are idempotent and answer 204.
 */
export function readMarksRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const onRequest = authenticate(ctx);
    const common = { errors: ['notFound'] as const, security: BEARER };
    const fileOf = (p: z.infer<typeof fileParams>) => ({
      teamRef: p.teamId,
      collectionId: p.collectionId,
      fileId: p.fileId,
    });

    app.put(
      '/teams/:teamId/collections/:collectionId/files/:fileId/read',
      {
        schema: {
          ...common,
          operationId: 'markFileRead',
          tags: ['files'],
          summary: 'Mark a file read for the caller ("Mark as read")',
          description: `\`readAt\` of the file becomes the time of this call; the collection's mark is left as it was. ${ACCESS_ERRORS}`,
          params: fileParams,
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        await markFileRead(ctx, actorOf(request), fileOf(request.params));
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/teams/:teamId/collections/:collectionId/files/:fileId/read',
      {
        schema: {
          ...common,
          operationId: 'markFileUnread',
          tags: ['files'],
          summary: 'Mark a file unread for the caller ("Mark as unread")',
          description: `\`readAt\` of the file becomes null until the caller opens, downloads or marks it again. ${ACCESS_ERRORS}`,
          params: fileParams,
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        await markFileUnread(ctx, actorOf(request), fileOf(request.params));
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/teams/:teamId/collections/:collectionId/read',
      {
        schema: {
          ...common,
          operationId: 'markCollectionRead',
          tags: ['collections'],
          summary: 'Mark a collection and all its files read for the caller ("Mark all as read")',
          description: `Every file the caller had not read gets \`readAt\` = the time of this call (files already read keep theirs), and so does the collection. ${ACCESS_ERRORS}`,
          params: collectionParams,
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId } = request.params;
        await markCollectionRead(ctx, actorOf(request), teamId, collectionId);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/teams/:teamId/collections/:collectionId/read',
      {
        schema: {
          ...common,
          operationId: 'markCollectionUnread',
          tags: ['collections'],
          summary: 'Mark a collection unread for the caller ("Mark as unread")',
          description: `The collection's \`readAt\` becomes null until the caller opens it again; its files keep their own marks. ${ACCESS_ERRORS}`,
          params: collectionParams,
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId } = request.params;
        await markCollectionUnread(ctx, actorOf(request), teamId, collectionId);
        return reply.status(204).send(null);
      },
    );
    return Promise.resolve();
  };
}
