import {
  teamRefSchema,
  trashListQuerySchema,
  trashListResponseSchema,
  trashPurgeResponseSchema,
  trashRestoreResponseSchema,
  trashSelectionSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { BEARER } from '../http/api-docs.js';
import { emptyTrash, listTeamTrash, purgeFromTrash, restoreFromTrash } from './trash.service.js';

const params = z.object({ teamId: teamRefSchema });
const ACCESS =
  'Owners and admins (whoever may delete files and collections, spec §6). authorizationRequired/invalidAuthorization (401); notFound (404) when the caller is not an active member of the team; forbidden (403) for uploaders and viewers.';

/**
 * The team's trash: deleted files and collections, restorable for TRASH_DAYS, still counted in
 * the team's storage until they are purged.
 */
export function trashRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const onRequest = authenticate(ctx);
    const tags = ['trash'];

    app.get(
      '/teams/:teamId/trash',
      {
        schema: {
          operationId: 'listTrash',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: "The team's trash, newest first",
          description: `Files deleted one by one and collections (with their files); the files deleted with a collection are not listed apart, they come back with it. \`totals\` counts the whole trash; its bytes still count toward the team's storage. ${ACCESS}`,
          params,
          querystring: trashListQuerySchema,
          response: { 200: trashListResponseSchema },
        },
        onRequest,
      },
      (request) => listTeamTrash(ctx, actorOf(request), request.params.teamId, request.query),
    );

    app.post(
      '/teams/:teamId/trash/restore',
      {
        schema: {
          operationId: 'restoreFromTrash',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: 'Put items of the trash back where they were',
          description: `A collection comes back with the files deleted with it; a file whose collection is in the trash too brings the collection back. All or nothing: an id that is not in the trash (or was restored or purged meanwhile) answers notFound and nothing changes. ${ACCESS}`,
          params,
          body: trashSelectionSchema,
          response: { 200: trashRestoreResponseSchema },
        },
        onRequest,
      },
      (request) =>
        restoreFromTrash(ctx, actorOf(request), request.params.teamId, request.body.itemIds),
    );

    app.post(
      '/teams/:teamId/trash/purge',
      {
        schema: {
          operationId: 'purgeFromTrash',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: 'Delete items of the trash for good',
          description: `Their stored bytes are deleted by a job right after. A collection takes with it its files, those deleted from it earlier included. All or nothing, like restore. ${ACCESS}`,
          params,
          body: trashSelectionSchema,
          response: { 200: trashPurgeResponseSchema },
        },
        onRequest,
      },
      (request) =>
        purgeFromTrash(ctx, actorOf(request), request.params.teamId, request.body.itemIds),
    );

    app.delete(
      '/teams/:teamId/trash',
      {
        schema: {
          operationId: 'emptyTrash',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: 'Empty the trash',
          description: `Everything in it, for good. ${ACCESS}`,
          params,
          response: { 200: trashPurgeResponseSchema },
        },
        onRequest,
      },
      (request) => emptyTrash(ctx, actorOf(request), request.params.teamId),
    );
    return Promise.resolve();
  };
}
