import {
  createUploadLinkSchema,
  guestFileListResponseSchema,
  guestSessionSchema,
  idSchema,
  openUploadLinkSchema,
  teamRefSchema,
  updateUploadLinkSchema,
  uploadLinkListResponseSchema,
  uploadLinkSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { BEARER, GUEST, PUBLIC } from '../http/api-docs.js';
import {
  authenticateGuest,
  deleteOwnGuestFile,
  guestClaimsOf,
  listOwnGuestFiles,
  openUploadLink,
} from './guest.service.js';
import {
  createUploadLink,
  deleteUploadLink,
  listUploadLinks,
  updateUploadLink,
} from './links.service.js';

const collectionParams = z.object({ teamId: teamRefSchema, collectionId: idSchema });
const linkParams = collectionParams.extend({ linkId: idSchema });
const ACCESS =
  "Owners and admins, and the collection's creator where spec §6 lets them change it (contracts' canManageUploadLinks). authorizationRequired/invalidAuthorization (401); notFound (404) for another team or a collection the caller cannot see; forbidden (403) for viewers and an uploader on someone else's collection.";
const GUEST_ACCESS =
  'With the guest token of POST /guest/links/{token}/open. uploadLinkNotFound (404) once the link is disabled, expired or deleted, or its creator may no longer upload into the collection.';

/** Upload links for guests: managed under their collection; opened and used by guests. */
export function linksRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await -- Fastify plugins are async
  return async (app) => {
    const onRequest = authenticate(ctx);
    const onGuestRequest = authenticateGuest(ctx);
    const tags = ['upload links'];
    const base = '/teams/:teamId/collections/:collectionId/links';

    app.get(
      base,
      {
        schema: {
          operationId: 'listUploadLinks',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: "A collection's upload links, newest first",
          description: `Each with its guest URL (the token in it), the files and bytes that came through it. ${ACCESS}`,
          params: collectionParams,
          response: { 200: uploadLinkListResponseSchema },
        },
        onRequest,
      },
      (request) =>
        listUploadLinks(ctx, actorOf(request), request.params.teamId, request.params.collectionId),
    );

    app.post(
      base,
      {
        schema: {
          operationId: 'createUploadLink',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: 'Make an upload link for guests',
          description: `Its token is 256 random bits. \`acceptedTypes\` (default: the server's UPLOAD_ALLOWED_TYPES) must each be within UPLOAD_ALLOWED_TYPES, \`expiresAt\` in the future (invalidInput otherwise). The password is stored hashed (argon2id). ${ACCESS}`,
          params: collectionParams,
          body: createUploadLinkSchema,
          response: { 201: uploadLinkSchema },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId } = request.params;
        const link = await createUploadLink(
          ctx,
          actorOf(request),
          teamId,
          collectionId,
          request.body,
        );
        return reply.status(201).send(link);
      },
    );

    app.patch(
      `${base}/:linkId`,
      {
        schema: {
          operationId: 'updateUploadLink',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: 'Change, disable or re-enable an upload link',
          description: `Only the fields sent change; null clears password, expiry, caps and label. A disabled link refuses its guests at once, uploads in progress included. ${ACCESS}`,
          params: linkParams,
          body: updateUploadLinkSchema,
          response: { 200: uploadLinkSchema },
        },
        onRequest,
      },
      (request) => {
        const { teamId, collectionId, linkId } = request.params;
        return updateUploadLink(
          ctx,
          actorOf(request),
          { teamRef: teamId, collectionId, linkId },
          request.body,
        );
      },
    );

    app.delete(
      `${base}/:linkId`,
      {
        schema: {
          operationId: 'deleteUploadLink',
          tags,
          security: BEARER,
          errors: ['notFound', 'forbidden'],
          summary: 'Delete an upload link',
          description: `The files that came through it stay, with their guests' names. ${ACCESS}`,
          params: linkParams,
          answers: { 204: { description: 'The link is gone' } },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId, linkId } = request.params;
        await deleteUploadLink(ctx, actorOf(request), { teamRef: teamId, collectionId, linkId });
        return reply.status(204).send();
      },
    );

    app.post(
      '/guest/links/:token/open',
      {
        schema: {
          operationId: 'openUploadLink',
          tags,
          security: PUBLIC,
          errors: [
            'uploadLinkNotFound',
            'uploadLinkPasswordRequired',
            'wrongUploadLinkPassword',
            'tooManyRequests',
          ],
          summary: 'Open an upload link as a guest',
          description:
            'Answers what the guest page shows (collection, team, accepted types, required fields) and a guest token for two hours, bound to this link and to `guestId` (send back the one from an earlier visit to see the files sent then). An unknown, disabled or expired token answers uploadLinkNotFound, the same for each. A protected link needs `password`: uploadLinkPasswordRequired without it, wrongUploadLinkPassword when wrong. At most 10 failed openings per client address and 20 wrong passwords per link in 15 minutes, then tooManyRequests.',
          params: z.object({ token: z.string().max(200) }),
          body: openUploadLinkSchema,
          response: { 200: guestSessionSchema },
        },
      },
      (request) => openUploadLink(ctx, request.params.token, request.body, request.ip),
    );

    app.get(
      '/guest/files',
      {
        schema: {
          operationId: 'listGuestFiles',
          tags,
          security: GUEST,
          errors: ['uploadLinkNotFound'],
          summary: "The guest's own files sent through the link",
          description: `Only the files of this guest (guestId) through this link; never anyone else's. ${GUEST_ACCESS}`,
          response: { 200: guestFileListResponseSchema },
        },
        onRequest: onGuestRequest,
      },
      (request) => listOwnGuestFiles(ctx, guestClaimsOf(ctx, request.headers.authorization)),
    );

    app.delete(
      '/guest/files/:fileId',
      {
        schema: {
          operationId: 'deleteGuestFile',
          tags,
          security: GUEST,
          errors: ['uploadLinkNotFound', 'notFound'],
          summary: 'Take back a file the guest sent, within an hour',
          description: `Deleted for good. notFound for a file of someone else, of another link, or sent more than an hour ago. ${GUEST_ACCESS}`,
          params: z.object({ fileId: idSchema }),
          answers: { 204: { description: 'The file is gone' } },
        },
        onRequest: onGuestRequest,
      },
      async (request, reply) => {
        const claims = guestClaimsOf(ctx, request.headers.authorization);
        await deleteOwnGuestFile(ctx, claims, request.params.fileId);
        return reply.status(204).send();
      },
    );
  };
}
