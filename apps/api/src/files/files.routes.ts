import multipart from '@fastify/multipart';
import {
  duplicatesResponseSchema,
  fileDownloadQuerySchema,
  fileLookupRequestSchema,
  fileLookupResponseSchema,
  fileDownloadResponseSchema,
  fileListQuerySchema,
  fileListResponseSchema,
  fileSchema,
  idSchema,
  teamRefSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import {
  createFileDownload,
  deleteFile,
  getFile,
  listFilesOfAllTeams,
  listFilesOfCollection,
  listFilesOfTeam,
  listDuplicatesOfCollection,
  listMemberFilesOfCollection,
  lookupFiles,
} from './files.service.js';
import { readMarksRoutes } from './read-marks.routes.js';
import { renditionLinksRoutes } from './rendition-links.routes.js';
import { uploadFile } from './upload.service.js';
import { BEARER } from '../http/api-docs.js';

const tags = ['files'];
const security = BEARER;
const teamParams = z.object({ teamId: teamRefSchema });
const collectionParams = teamParams.extend({ collectionId: idSchema });
const fileParams = collectionParams.extend({ fileId: idSchema });
const memberCollectionParams = collectionParams.extend({ memberId: idSchema });
const ACCESS_ERRORS =
  'authorizationRequired/invalidAuthorization (401); notFound (404) when the caller is not an active member of the team, or the collection or file is not in it or not visible to the caller (an uploader sees the collections it created and the collaborative ones); forbidden (403) when spec §6 does not allow the action.';
const LIST =
  'Paged by `lastKey` (20 a page), by updatedAt (`sort`, default desc), `from`/`to` inclusive epoch ms, `creator` = uploaded by that user, `link` = sent through that upload link, `guest` = sent by a guest of that name. Thumbnail and preview links are signed for the caller and expire.';

export function filesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const onRequest = authenticate(ctx);
    const { files } = ctx.config;
    // Here only, so no other route accepts multipart bodies. One more byte than allowed, so an
    // oversized file reaches storage's own limit and is refused before it is ever published.
    await app.register(multipart, {
      preservePath: true,
      throwFileSizeLimit: false,
      limits: {
        fileSize: files.maxFileBytes + 1,
        files: 1,
        fields: 10,
        fieldNameSize: 100,
        fieldSize: 1024,
        parts: 20,
        headerPairs: 50,
      },
    });
    // Any other body reaches the upload unread, to be refused as invalidInput like a form
    // without a file, rather than as an unsupported media type.
    app.addContentTypeParser('*', (_request, _payload, done) => {
      done(null, undefined);
    });
    await app.register(renditionLinksRoutes(ctx));
    await app.register(readMarksRoutes(ctx));

    app.post(
      '/teams/:teamId/collections/:collectionId/files',
      {
        schema: {
          operationId: 'uploadFile',
          errors: [
            'notFound',
            'forbidden',
            'collectionClosed',
            'fileTooLarge',
            'fileTypeNotAllowed',
            'quotaExceededStorage',
          ],
          tags,
          summary: 'Upload a file into a collection (multipart/form-data, one part named file)',
          description: `The content type is sniffed from the bytes; the client's type and name are never trusted (the name is kept as \`originalName\` without control, bidi and zero-width characters, made safe as \`name\`). Images get a thumbnail and a preview in the background. fileTooLarge (413) above UPLOAD_MAX_FILE_BYTES; fileTypeNotAllowed (415) outside UPLOAD_ALLOWED_TYPES; invalidInput (400) without a part named file; collectionClosed (403) after the collection’s deadline unless it allows late uploads (the file is then marked late). Owner and admin upload anywhere; an uploader into a collection it created or a collaborative one. ${ACCESS_ERRORS}`,
          security,
          consumes: ['multipart/form-data'],
          params: collectionParams,
          response: { 201: fileSchema },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId } = request.params;
        try {
          const file = await uploadFile(ctx, actorOf(request), teamId, collectionId, () =>
            request.isMultipart() ? request.file() : Promise.resolve(undefined),
          );
          return await reply.status(201).send(file);
        } catch (err) {
          // The rest of an oversized body is not worth reading.
          if (err instanceof AppError && err.errorCode === 'fileTooLarge')
            reply.header('connection', 'close');
          throw err;
        }
      },
    );

    app.get(
      '/teams/:teamId/collections/:collectionId/files',
      {
        schema: {
          operationId: 'listCollectionFiles',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: "A collection's files",
          description: `${LIST} ${ACCESS_ERRORS}`,
          security,
          params: collectionParams,
          querystring: fileListQuerySchema,
          response: { 200: fileListResponseSchema },
        },
        onRequest,
      },
      (request) =>
        listFilesOfCollection(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.collectionId,
          request.query,
        ),
    );

    app.post(
      '/teams/:teamId/collections/:collectionId/files/lookup',
      {
        schema: {
          operationId: 'lookupCollectionFiles',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'Which of these SHA-256 digests the collection already holds',
          description: `The duplicate check before an upload: \`sha256\` lists 1 to 100 lowercase hex digests of files as they would be uploaded; \`found\` names, for each digest the collection holds, its oldest file with those bytes (as uploaded: a file whose location was stripped still matches the bytes it arrived with). Nothing is written. invalidInput (400) for a malformed list. Those who may upload into the collection may ask (forbidden (403) for a viewer). ${ACCESS_ERRORS}`,
          security,
          params: collectionParams,
          body: fileLookupRequestSchema,
          response: { 200: fileLookupResponseSchema },
        },
        onRequest,
      },
      (request) =>
        lookupFiles(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.collectionId,
          request.body.sha256,
        ),
    );

    app.get(
      '/teams/:teamId/collections/:collectionId/files/duplicates',
      {
        schema: {
          operationId: 'listCollectionDuplicates',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: "A collection's files that hold the same content as another of its files",
          description: `Grouped by the SHA-256 of the bytes as uploaded, each group oldest first (the one to keep); at most 100 groups, \`more\` when there are others. Delete the extras with deleteFile. ${ACCESS_ERRORS}`,
          security,
          params: collectionParams,
          response: { 200: duplicatesResponseSchema },
        },
        onRequest,
      },
      (request) =>
        listDuplicatesOfCollection(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.collectionId,
        ),
    );

    app.get(
      '/teams/:teamId/members/:memberId/collections/:collectionId/files',
      {
        schema: {
          operationId: 'listMemberCollectionFiles',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: "A member's uploads into a collection",
          description: `${LIST} ${ACCESS_ERRORS}`,
          security,
          params: memberCollectionParams,
          querystring: fileListQuerySchema,
          response: { 200: fileListResponseSchema },
        },
        onRequest,
      },
      (request) =>
        listMemberFilesOfCollection(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.memberId,
          request.params.collectionId,
          request.query,
        ),
    );

    app.get(
      '/teams/:teamId/files',
      {
        schema: {
          operationId: 'listTeamFiles',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'The files of every collection of the team the caller sees',
          description: `${LIST} ${ACCESS_ERRORS}`,
          security,
          params: teamParams,
          querystring: fileListQuerySchema,
          response: { 200: fileListResponseSchema },
        },
        onRequest,
      },
      (request) => listFilesOfTeam(ctx, actorOf(request), request.params.teamId, request.query),
    );

    app.get(
      '/files',
      {
        schema: {
          operationId: 'listAllFiles',
          tags,
          summary: "The files of every team the caller is an active member of, as each team's list",
          description: `${LIST} authorizationRequired/invalidAuthorization (401).`,
          security,
          querystring: fileListQuerySchema,
          response: { 200: fileListResponseSchema },
        },
        onRequest,
      },
      (request) => listFilesOfAllTeams(ctx, actorOf(request), request.query),
    );

    app.get(
      '/teams/:teamId/collections/:collectionId/files/:fileId',
      {
        schema: {
          operationId: 'getFile',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'One file; opening its preview marks it (and its collection) read',
          description: ACCESS_ERRORS,
          security,
          params: fileParams,
          response: { 200: fileSchema },
        },
        onRequest,
      },
      (request) => {
        const { teamId, collectionId, fileId } = request.params;
        return getFile(ctx, actorOf(request), teamId, collectionId, fileId);
      },
    );

    app.get(
      '/teams/:teamId/collections/:collectionId/files/:fileId/download',
      {
        schema: {
          operationId: 'createFileDownloadLink',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'A short-lived link that downloads the original as an attachment',
          description: `Needs createDownload (owner, admin, viewer). The file is saved under its \`name\` with an extension of its sniffed \`contentType\` when the name's own contradicts it (\`polyglot.html\` holding a JPEG is saved as \`polyglot.jpg\`). The link works without the Authorization header until SIGNED_URL_TTL_SECONDS pass. Marks the file read. With \`disposition=inline\`, a PDF's link is served inline, framable by the web app, for the browser's own viewer; other types stay attachments. ${ACCESS_ERRORS}`,
          security,
          params: fileParams,
          querystring: fileDownloadQuerySchema,
          response: { 200: fileDownloadResponseSchema },
        },
        onRequest,
      },
      (request) => {
        const { teamId, collectionId, fileId } = request.params;
        return createFileDownload(ctx, actorOf(request), teamId, collectionId, fileId, {
          inline: request.query.disposition === 'inline',
        });
      },
    );

    app.delete(
      '/teams/:teamId/collections/:collectionId/files/:fileId',
      {
        schema: {
          operationId: 'deleteFile',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'Delete a file (owner, admin); its stored bytes are deleted right after',
          description: ACCESS_ERRORS,
          security,
          params: fileParams,
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, collectionId, fileId } = request.params;
        await deleteFile(ctx, actorOf(request), teamId, collectionId, fileId);
        return reply.status(204).send(null);
      },
    );
  };
}
