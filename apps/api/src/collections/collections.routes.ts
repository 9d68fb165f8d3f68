import {
  collectionListQuerySchema,
  collectionListResponseSchema,
  collectionPatchSchema,
  collectionSchema,
  collectionScopedListQuerySchema,
  createCollectionRequestSchema,
  createCollectionResponseSchema,
  idSchema,
  remindResponseSchema,
  teamRefSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listAllCollections,
  listCollections,
  listMemberCollections,
  listSharedCollections,
  patchCollection,
} from './collections.service.js';
import { BEARER } from '../http/api-docs.js';
import { remindNow } from './reminders.service.js';

const tags = ['collections'];
const security = BEARER;
const teamParams = z.object({ teamId: teamRefSchema });
// Any string: a malformed id is answered like an unknown one, 404, never 400.
const collectionParams = teamParams.extend({
  collectionId: z.string().describe('Collection id'),
});
const memberParams = teamParams.extend({ memberId: idSchema });
const ACCESS_ERRORS =
  'authorizationRequired/invalidAuthorization (401); notFound (404) when the caller is not an active member of the team.';
const COLLECTION_ERRORS = `${ACCESS_ERRORS} notFound (404) too for a collection of another team, a malformed or unknown id, or one the caller may not see (an uploader and someone else's owned collection).`;
const LIST =
  'By updatedAt (`sort`, default desc), `from`/`to` inclusive (epoch ms; from after to is invalidInput with filterStartEndDateInvalid), `tagged` = tagged with that user. Paged by `lastKey` (invalidInput when it does not decode). An uploader sees the collections it created and the collaborative ones; every other role sees all.';

export function collectionsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const onRequest = authenticate(ctx);

    app.get(
      '/collections',
      {
        schema: {
          operationId: 'listAllCollections',
          tags,
          summary: 'The collections of every team the caller is an active member of',
          description: `${LIST} authorizationRequired/invalidAuthorization (401).`,
          security,
          querystring: collectionScopedListQuerySchema,
          response: { 200: collectionListResponseSchema },
        },
        onRequest,
      },
      (request) => listAllCollections(ctx, actorOf(request), request.query),
    );

    app.get(
      '/teams/:teamId/collections',
      {
        schema: {
          operationId: 'listCollections',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: "The team's collections",
          description: `\`member\` = created by that user, \`view=collaborative\` = shared ones only; every filter combines. ${LIST} ${ACCESS_ERRORS}`,
          security,
          params: teamParams,
          querystring: collectionListQuerySchema,
          response: { 200: collectionListResponseSchema },
        },
        onRequest,
      },
      (request) => listCollections(ctx, actorOf(request), request.params.teamId, request.query),
    );

    app.get(
      '/teams/:teamId/shared-collections',
      {
        schema: {
          operationId: 'listSharedCollections',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: "The team's collaborative (shared) collections",
          description: `${LIST} ${ACCESS_ERRORS}`,
          security,
          params: teamParams,
          querystring: collectionScopedListQuerySchema,
          response: { 200: collectionListResponseSchema },
        },
        onRequest,
      },
      (request) =>
        listSharedCollections(ctx, actorOf(request), request.params.teamId, request.query),
    );

    app.get(
      '/teams/:teamId/members/:memberId/collections',
      {
        schema: {
          operationId: 'listMemberCollections',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'The collections a member of the team created',
          description: `${LIST} notFound (404) when memberId has no membership in the team. ${ACCESS_ERRORS}`,
          security,
          params: memberParams,
          querystring: collectionScopedListQuerySchema,
          response: { 200: collectionListResponseSchema },
        },
        onRequest,
      },
      (request) =>
        listMemberCollections(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.memberId,
          request.query,
        ),
    );

    app.get(
      '/teams/:teamId/collections/:collectionId',
      {
        schema: {
          operationId: 'getCollection',
          errors: ['notFound'],
          tags,
          summary: 'One collection; opening it marks it read for the caller',
          description: `\`readAt\` is the time of this call. ${COLLECTION_ERRORS}`,
          security,
          params: collectionParams,
          response: { 200: collectionSchema },
        },
        onRequest,
      },
      (request) =>
        getCollection(ctx, actorOf(request), request.params.teamId, request.params.collectionId),
    );

    app.post(
      '/teams/:teamId/collections',
      {
        schema: {
          operationId: 'createCollection',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'Create a draft collection',
          description: `forbidden (403) for a viewer, an uploader in a controlled team, or an uploader asking for mode collaborative (spec §6). ${ACCESS_ERRORS}`,
          security,
          params: teamParams,
          body: createCollectionRequestSchema,
          response: { 201: createCollectionResponseSchema },
        },
        onRequest,
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await createCollection(ctx, actorOf(request), request.params.teamId, request.body)),
    );

    app.patch(
      '/teams/:teamId/collections/:collectionId',
      {
        schema: {
          operationId: 'patchCollection',
          errors: ['notFound', 'forbidden', 'invalidTeamMember'],
          tags,
          summary:
            'Rename, describe or tag a collection (RFC 6902 over /name, /description, /tags)',
          description: `\`replace\` changes, \`test\` guards (a failed test is invalidInput, 400); /description also takes \`add\` and \`remove\`, and a blank value clears it. Operations apply in order, all or none; updatedAt moves only when something changed. forbidden (403) unless a manager, or an uploader on a collection it created. invalidTeamMember (400) when a tag is not an active member of the team. ${COLLECTION_ERRORS}`,
          security,
          params: collectionParams,
          body: collectionPatchSchema,
          response: { 200: collectionSchema },
        },
        onRequest,
      },
      (request) =>
        patchCollection(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.collectionId,
          request.body,
        ),
    );

    app.delete(
      '/teams/:teamId/collections/:collectionId',
      {
        schema: {
          operationId: 'deleteCollection',
          errors: ['notFound', 'forbidden'],
          tags,
          summary:
            'Delete a collection with its files, uploads in progress and downloads (owner, admin)',
          description: `Its stored bytes are deleted right after, in the background. forbidden (403) unless owner or admin. ${COLLECTION_ERRORS}`,
          security,
          params: collectionParams,
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId } = request.params;
        await deleteCollection(ctx, actorOf(request), teamId, collectionId);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/teams/:teamId/collections/:collectionId/reminders',
      {
        schema: {
          operationId: 'sendCollectionReminder',
          errors: [
            'notFound',
            'forbidden',
            'invalidRequest',
            'collectionClosed',
            'tooManyRequests',
          ],
          tags,
          summary: 'E-mail a deadline reminder now (owner, admin)',
          description: `To every active member who may upload to the collection, has an e-mail address (internal contributors have none) and has uploaded nothing to it, in their language, with a link to the collection in the upload app. Answers how many e-mails were queued (202); 200 with \`sent: 0\` when nobody needs a reminder, which does not count against the hourly limit. invalidRequest (400) when the collection has no deadline; collectionClosed (403) after a deadline that allows no late uploads; tooManyRequests (429) for a second request within an hour for the same collection; forbidden (403) unless owner or admin. ${COLLECTION_ERRORS}`,
          security,
          params: collectionParams,
          response: { 200: remindResponseSchema, 202: remindResponseSchema },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId } = request.params;
        const sent = await remindNow(ctx, actorOf(request), teamId, collectionId);
        return reply.status(sent.sent === 0 ? 200 : 202).send(sent);
      },
    );
    return Promise.resolve();
  };
}
