import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { idSchema, teamRefSchema } from '@raccolta/contracts';
import { Server as TusServer } from '@tus/server';
import { Metadata, TUS_RESUMABLE, TUS_VERSION } from '@tus/utils';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import { requireAccess, type CollectionAccess } from '../access/access.js';
import { can } from '../access/rules.js';
import type { AppContext } from '../context.js';
import { isUuid } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { BEARER, GUEST } from '../http/api-docs.js';
import {
  authenticateGuest,
  guestClaimsOf,
  guestDetails,
  requireGuest,
} from '../links/guest.service.js';
import { releaseOnLink } from '../links/links.repository.js';
import type { UserRow } from '../users/users.repository.js';
import { uploadBackendFor } from './backend-cache.js';
import { DatabaseLocker } from './upload-locks.js';
import { readBodiesFromNode, withoutWebBody } from './node-bodies.js';
import {
  protocolErrorBody,
  toTusErrorAnswer,
  withJsonError,
  type TusProtocolStatus,
} from './tus-errors.js';
import {
  CHECKSUM_ALGORITHMS,
  tusRequestContext,
  type ChecksumAlgorithm,
  type TusRequestContext,
} from './upload-store.js';
import { deleteUpload, findUpload } from './uploads.repository.js';
import {
  checkDeclaredSha256,
  findCompleteUpload,
  finishUpload,
  checkUploadLength,
  assertOpenForUploads,
  prepareUpload,
  reserveUpload,
  type GuestUpload,
  type UploadDeps,
} from './uploads.service.js';

/** What our checks found before a request reaches tus, for tus's hooks to use. */
interface TusCall {
  actor: UserRow;
  request: IncomingMessage;
  uploadId: string;
  location: string;
  access?: CollectionAccess;
  /** A guest's upload through a link: the actor is then the link's creator. */
  guest?: GuestUpload;
  /** When the upload expires (HEAD answers it; @tus/server's HEAD does not). */
  expiresAt?: number;
  /**
   * Set once the upload became a file (where its bytes are stored), so what tus kept of it is
   * released after the answer.
   */
  storageKey?: string;
}

const tags = ['uploads'];
const security = BEARER;
const collectionParams = z.object({ teamId: teamRefSchema, collectionId: idSchema });
const uploadParams = collectionParams.extend({ uploadId: z.string().max(100) });
const TUS =
  'tus 1.0 (https://tus.io/protocols/resumable-upload) with the creation, creation-with-upload, termination, checksum (sha1, sha256, md5) and expiration extensions. Send `Authorization: Bearer …` and `Tus-Resumable: 1.0.0` on every request. Errors answer `{ statusCode, errorCode, message }`: authorizationRequired/invalidAuthorization (401); notFound (404) for another team, a collection the caller cannot see, or an upload of someone else; forbidden (403) when spec §6 does not let the caller upload there; collectionClosed (403) on POST and every PATCH once the collection’s deadline has passed, unless it allows late uploads (then the file is marked late); uploadOffsetMismatch (409); uploadExpired (410); fileTooLarge and quotaExceededStorage (413); fileTypeNotAllowed (415, when the last byte arrives: the content type is sniffed from the bytes); checksumMismatch (460).';

const TUS_OPERATIONS = {
  HEAD: {
    operationId: 'getUploadOffset',
    errors: ['notFound', 'forbidden', 'uploadExpired'],
    answers: {
      200: {
        description: 'How far the upload got',
        headers: {
          'Upload-Offset': 'Bytes stored so far',
          'Upload-Length': 'The size of the whole file',
          'Upload-Expires': 'When an unfinished upload is deleted',
          'Tus-Resumable': '1.0.0',
        },
      },
    },
  },
  PATCH: {
    operationId: 'appendToUpload',
    errors: [
      'notFound',
      'forbidden',
      'collectionClosed',
      'uploadOffsetMismatch',
      'uploadExpired',
      'fileTooLarge',
      'quotaExceededStorage',
      'fileTypeNotAllowed',
      'checksumMismatch',
    ],
    answers: {
      204: {
        description: 'The bytes are stored; at the last one the upload became a file',
        headers: { 'Upload-Offset': 'Bytes stored so far', 'Tus-Resumable': '1.0.0' },
      },
    },
  },
  DELETE: {
    operationId: 'deleteUpload',
    errors: ['notFound', 'forbidden', 'uploadExpired'],
    answers: { 204: { description: 'The upload and its bytes are gone' } },
  },
} as const satisfies Record<
  string,
  Required<Pick<FastifySchema, 'operationId' | 'errors' | 'answers'>>
>;

const TUS_CREATED = {
  201: {
    description: 'The upload exists; with a body (creation-with-upload) its bytes are stored',
    headers: {
      Location: 'The URL of the upload, for HEAD, PATCH and DELETE',
      'Upload-Offset': 'Bytes stored so far',
      'Tus-Resumable': '1.0.0',
    },
  },
} as const;

/** The methods of an upload URL; a POST names one of them in X-HTTP-Method-Override. */
const UPLOAD_METHODS = ['HEAD', 'PATCH', 'DELETE'] as const;
type UploadMethod = (typeof UPLOAD_METHODS)[number];
type TusMethod = UploadMethod | 'POST';

const OFFSET_OCTET_STREAM = 'application/offset+octet-stream';

/** A refusal of the protocol itself, with the headers tus asks of it. */
interface ProtocolRefusal {
  status: TusProtocolStatus;
  message: string;
  headers: Record<string, string>;
}

/**
 * What tus 1.0 checks before anything else (the server MUST NOT process such a request): the
 * protocol version (412 with the versions we speak) and a PATCH body's media type (415).
 */
function protocolRefusal(request: FastifyRequest, method: TusMethod): ProtocolRefusal | null {
  const version = request.headers['tus-resumable'];
  if (version !== TUS_RESUMABLE) {
    return {
      status: 412,
      message:
        version === undefined
          ? `Tus-Resumable: ${TUS_RESUMABLE} is required`
          : `Tus-Resumable ${String(version)} is not supported; this server speaks ${TUS_VERSION.join(', ')}`,
      headers: { 'Tus-Version': TUS_VERSION.join(',') },
    };
  }
  if (method === 'PATCH' && request.headers['content-type'] !== OFFSET_OCTET_STREAM) {
    return {
      status: 415,
      message: `A PATCH body must be sent as Content-Type: ${OFFSET_OCTET_STREAM}`,
      headers: {},
    };
  }
  return null;
}

function refuse(reply: FastifyReply, refusal: ProtocolRefusal): FastifyReply {
  return reply
    .status(refusal.status)
    .header('Tus-Resumable', TUS_RESUMABLE)
    .headers(refusal.headers)
    .send(protocolErrorBody(refusal.status, refusal.message));
}

/**
 * The method a request stands for: tus 1.0 has servers honour `X-HTTP-Method-Override` (for
 * proxies that block PATCH; tus-js-client's `overridePatchMethod`). Null for a method this URL
 * does not have.
 */
function effectiveMethod<M extends TusMethod>(
  request: FastifyRequest,
  allowed: readonly M[],
): M | null {
  const override = request.headers['x-http-method-override'];
  const method = typeof override === 'string' ? override.trim().toUpperCase() : request.method;
  return (allowed as readonly string[]).includes(method) ? (method as M) : null;
}

function unsupportedOverride(request: FastifyRequest, allowed: readonly string[]): AppError {
  return new AppError('invalidRequest', {
    message: `X-HTTP-Method-Override: ${String(request.headers['x-http-method-override'])} is not supported here; use one of ${allowed.join(', ')}`,
  });
}

function parseChecksum(header: string | undefined): TusRequestContext {
  if (header === undefined) return {};
  const [algorithm, digest, ...rest] = header.trim().split(' ');
  if (!CHECKSUM_ALGORITHMS.includes(algorithm as ChecksumAlgorithm) || !digest || rest.length) {
    throw new AppError('invalidInput', {
      message: `Upload-Checksum must be "<${CHECKSUM_ALGORITHMS.join('|')}> <base64 digest>"`,
    });
  }
  return {
    checksum: {
      algorithm: algorithm as ChecksumAlgorithm,
      expected: Buffer.from(digest, 'base64'),
    },
  };
}

export function uploadsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await -- Fastify plugins are async
  return async (app) => {
    const onRequest = authenticate(ctx);
    const backend = uploadBackendFor(ctx.config, ctx.storage);
    const deps: UploadDeps = { ...ctx, backend };
    const basePath = new URL(ctx.config.apiPublicUrl).pathname.replace(/\/+$/, '');
    const calls = new AsyncLocalStorage<TusCall>();
    // A phone sending a few hundred photos makes two or three requests for each: the general
    // limit, meant for clicks, would stop it midway.
    const rateLimit = {
      max: ctx.config.rateLimit.max * 10,
      timeWindow: ctx.config.rateLimit.windowMs,
    };
    const call = (): TusCall => {
      const current = calls.getStore();
      if (!current) throw new Error('a tus request ran outside its route');
      return current;
    };

    const logUnexpected = (err: unknown) => ctx.logger.error({ err }, 'upload request failed');

    const tus = new TusServer({
      path: `${basePath}/uploads`,
      datastore: backend.store,
      // Unset: @tus/server's locker, which sees only this process.
      locker:
        ctx.config.files.uploadLocks === 'database'
          ? new DatabaseLocker(ctx.db, {
              onError: (err) => ctx.logger.warn({ err }, 'upload lock renewal failed'),
            })
          : undefined,
      maxSize: ctx.config.files.maxFileBytes,
      allowedOrigins: ctx.config.webOrigins,
      exposedHeaders: ['Upload-Expires'],
      disableTerminationForFinishedUploads: true,
      namingFunction: () => backend.storeId(call().uploadId),
      getFileIdFromRequest: () => backend.storeId(call().uploadId),
      generateUrl: () => call().location,
      onUploadCreate: async (_req, upload) => {
        const { access, uploadId, guest } = call();
        if (!access) throw new Error('creation without an access check');
        checkDeclaredSha256(upload.metadata);
        await reserveUpload(
          deps,
          access,
          {
            id: uploadId,
            size: upload.size ?? 0,
            fileName: upload.metadata?.filename ?? undefined,
          },
          guest,
        );
        return {};
      },
      onUploadFinish: async (_req, upload) => {
        const current = call();
        const row = await findUpload(ctx.db, current.uploadId);
        if (!row) throw new AppError('notFound');
        current.storageKey = await finishUpload(deps, current.actor, row, upload.metadata);
        const context = tusRequestContext.getStore();
        if (context) context.finished = upload;
        return {};
      },
      onResponseError: (_req, error) => toTusErrorAnswer(error, logUnexpected),
    });
    readBodiesFromNode(tus, () => call().request);

    /** Hands the request to tus, with the headers our hooks (security, CORS) already set. */
    async function toTus(
      request: FastifyRequest,
      reply: FastifyReply,
      method: TusMethod,
      tusCall: TusCall,
    ): Promise<void> {
      const context = parseChecksum(request.headers['upload-checksum'] as string | undefined);
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value);
      }
      reply.hijack();
      const response = await calls
        .run(tusCall, () =>
          tusRequestContext.run(context, () =>
            tus.handleWeb(
              withoutWebBody(new NodeRequest({ req: request.raw, res: reply.raw }), { method }),
            ),
          ),
        )
        .finally(() => {
          if (context.received) {
            ctx.metrics.uploadReceivedBytes.inc({ protocol: 'tus' }, context.received);
          }
        });
      // Before the answer, once tus no longer reads the upload: a client that gets its answer
      // finds the upload's leftovers and reservation gone.
      try {
        if (tusCall.storageKey !== undefined) {
          await backend.release(tusCall.uploadId, tusCall.storageKey);
        }
        if (method === 'DELETE' && response.status === 204) {
          const row = await findUpload(ctx.db, tusCall.uploadId);
          await backend.discard(tusCall.uploadId);
          await deleteUpload(ctx.db, tusCall.uploadId);
          if (row?.link_id) await releaseOnLink(ctx.db, row.link_id, row.size);
        }
      } catch (err) {
        // The expiry job removes what is left; nothing of it is visible to users.
        ctx.logger.warn({ err, uploadId: tusCall.uploadId }, 'could not clean up after an upload');
      }
      if (method === 'HEAD' && response.status === 200 && tusCall.expiresAt) {
        response.headers.set('Upload-Expires', new Date(tusCall.expiresAt).toUTCString());
      }
      await sendNodeResponse(reply.raw, await withJsonError(response, logUnexpected));
    }

    // tus bodies are read by tus itself, as a stream, whatever their content type claims: the
    // JSON and text parsers this scope inherits would read them first.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => {
      done(null, undefined);
    });

    /**
     * tus discovery (OPTIONS without Access-Control-Request-Method): what this server offers,
     * with no token, since it says nothing of any team. A CORS preflight on the same URL is
     * answered as on every other path (the CORS plugin has set its headers): the route only
     * tells the plugin to let OPTIONS through to it.
     */
    const discover = (request: FastifyRequest, reply: FastifyReply) => {
      if (
        request.headers.origin !== undefined &&
        request.headers['access-control-request-method']
      ) {
        return reply.status(204).header('Content-Length', '0').send();
      }
      return reply
        .status(204)
        .headers({
          'Tus-Resumable': TUS_RESUMABLE,
          'Tus-Version': TUS_VERSION.join(','),
          'Tus-Extension': backend.store.extensions.join(','),
          'Tus-Max-Size': String(ctx.config.files.maxFileBytes),
          'Tus-Checksum-Algorithm': CHECKSUM_ALGORITHMS.join(','),
        })
        .send();
    };
    for (const url of [
      '/teams/:teamId/collections/:collectionId/uploads',
      '/teams/:teamId/collections/:collectionId/uploads/:uploadId',
    ]) {
      app.options(
        url,
        {
          // Not in the OpenAPI document, as no OPTIONS is: a constant answer about the server.
          schema: { hide: true },
          config: {
            cors: { strictPreflight: false, preflightContinue: true },
            // As the CORS plugin's own preflight answers: a constant answer, before any limit.
            rateLimit: false,
          },
        },
        discover,
      );
    }

    const locationOf = (access: { team: { id: string }; collection: { id: string } }, id: string) =>
      `${basePath}/teams/${access.team.id}/collections/${access.collection.id}/uploads/${id}`;

    app.post(
      '/teams/:teamId/collections/:collectionId/uploads',
      {
        schema: {
          tags,
          operationId: 'createUpload',
          summary: 'Create a resumable upload (tus); the upload id becomes the file id',
          description: `Upload-Length is required and at most UPLOAD_MAX_FILE_BYTES; the team's files plus uploads in progress must stay within UPLOAD_TEAM_MAX_BYTES. Metadata: \`filename\`, optionally \`sha256\` (the 64 hex digits of the whole file's SHA-256: invalidInput (400) when malformed; verified when the last byte arrives, checksumMismatch (460) and nothing kept when it differs; recorded on the file for the duplicate lookup). Answers 201 with Location. ${TUS}`,
          security,
          params: collectionParams,
          errors: [
            'notFound',
            'forbidden',
            'collectionClosed',
            'fileTooLarge',
            'quotaExceededStorage',
            'checksumMismatch',
          ],
          answers: TUS_CREATED,
        },
        config: { rateLimit },
        onRequest,
      },
      async (request, reply) => {
        if (!effectiveMethod(request, ['POST'])) throw unsupportedOverride(request, ['POST']);
        const refusal = protocolRefusal(request, 'POST');
        if (refusal) return refuse(reply, refusal);
        const actor = actorOf(request);
        const { teamId, collectionId } = request.params;
        const length = request.headers['upload-length'];
        const { access, uploadId } = await prepareUpload(
          deps,
          actor,
          teamId,
          collectionId,
          typeof length === 'string' ? length : undefined,
        );
        await toTus(request, reply, 'POST', {
          actor,
          request: request.raw,
          uploadId,
          access,
          location: locationOf(access, uploadId),
        });
        return reply;
      },
    );

    /**
     * HEAD, PATCH or DELETE on an upload URL: the method sent, or the one its
     * X-HTTP-Method-Override names (tus: the actual method is then ignored).
     */
    async function onUpload(
      request: FastifyRequest<{ Params: z.infer<typeof uploadParams> }>,
      reply: FastifyReply,
    ): Promise<FastifyReply> {
      const method = effectiveMethod(request, UPLOAD_METHODS);
      if (!method) throw unsupportedOverride(request, UPLOAD_METHODS);
      const refusal = protocolRefusal(request, method);
      if (refusal) return refuse(reply, refusal);
      const actor = actorOf(request);
      const { teamId, collectionId, uploadId } = request.params;
      // HEAD, PATCH and DELETE: the caller's own upload in the URL's collection, into which the
      // caller may still upload; anyone else's upload URL is 404 and reveals nothing.
      const { upload: row, collection } = await requireAccess(
        deps,
        actor,
        { team: teamId, collection: collectionId, upload: uploadId },
        can.uploadFile,
      );
      const location = `${basePath}/teams/${row.team_id}/collections/${row.collection_id}/uploads/${row.id}`;
      // Bytes after the deadline are refused at every request, not only at creation.
      if (method === 'PATCH' && row.status !== 'completed') assertOpenForUploads(deps, collection);
      if (row.status === 'completed') {
        return answerCompleted(request, reply, method, row.size);
      }
      // The last PATCH stored every byte but its commit failed or the process died: a client
      // resuming now would stop at a full offset, so the commit happens here.
      const complete = method === 'HEAD' ? await findCompleteUpload(deps, row) : null;
      if (complete) {
        await backend.release(row.id, await finishUpload(deps, actor, row, complete.metadata));
        return answerCompleted(request, reply, method, row.size);
      }
      await toTus(request, reply, method, {
        actor,
        request: request.raw,
        uploadId: row.id,
        location,
        expiresAt: row.expires_at,
      });
      return reply;
    }

    for (const method of UPLOAD_METHODS) {
      app.route({
        method,
        url: '/teams/:teamId/collections/:collectionId/uploads/:uploadId',
        // Fastify answers HEAD from GET routes by default; this one is tus's own.
        exposeHeadRoute: false,
        schema: {
          tags,
          summary: {
            HEAD: 'The offset of a resumable upload (tus)',
            PATCH: 'Append bytes at Upload-Offset (tus)',
            DELETE: 'Abandon an upload in progress (tus termination)',
          }[method],
          operationId: TUS_OPERATIONS[method].operationId,
          description: TUS,
          security,
          params: uploadParams,
          errors: TUS_OPERATIONS[method].errors,
          answers: TUS_OPERATIONS[method].answers,
        },
        // The OpenAPI document leaves HEAD routes out unless a route asks: this one is tus's own.
        config: { rateLimit, swagger: { exposeHeadRoute: method === 'HEAD' } },
        onRequest,
        handler: onUpload,
      });
    }

    // X-HTTP-Method-Override (tus-js-client's overridePatchMethod, for proxies that block
    // PATCH): a POST that stands for one of the above, with the same token, checks and limit. Not
    // in the OpenAPI document: the operations are those it stands for. A POST that names no
    // method is none of them.
    app.post(
      '/teams/:teamId/collections/:collectionId/uploads/:uploadId',
      { schema: { hide: true, params: uploadParams }, config: { rateLimit }, onRequest },
      (request, reply) => {
        if (request.headers['x-http-method-override'] === undefined) {
          return reply.callNotFound();
        }
        return onUpload(request, reply);
      },
    );

    // Guests, through an upload link (links/): the same tus server, with the guest token of
    // POST /guest/links/{token}/open instead of a session. Every request checks the link again
    // (enabled, not expired, its creator still allowed to upload into the collection); an upload
    // is reached only with the token of the guest who created it.
    const guestLocation = (id: string) => `${basePath}/guest/uploads/${id}`;
    const GUEST_TUS = `${TUS.replace('Send `Authorization: Bearer …`', 'Send `Authorization: Bearer <guest token>`')} uploadLinkNotFound (404) once the link is disabled, expired or deleted, at every request; uploadLinkFull (409) past the link's maxFiles or maxBytes; fileTypeNotAllowed (415) for a type the link does not accept.`;

    app.post(
      '/guest/uploads',
      {
        schema: {
          tags,
          operationId: 'createGuestUpload',
          summary: 'Create a resumable upload through an upload link (tus)',
          description: `Upload-Length as for createUpload; the link's maxFiles and maxBytes and the team's storage are reserved at once. Metadata: \`filename\`, \`guestName\` (required when the link asks for a name), \`guestEmail\` (required when it asks for an e-mail; emailRequired, invalidEmail), optionally \`sha256\`. ${GUEST_TUS}`,
          security: GUEST,
          errors: [
            'uploadLinkNotFound',
            'uploadLinkFull',
            'fileTooLarge',
            'quotaExceededStorage',
            'checksumMismatch',
            'emailRequired',
            'invalidEmail',
          ],
          answers: TUS_CREATED,
        },
        config: { rateLimit },
        onRequest: authenticateGuest(ctx),
      },
      async (request, reply) => {
        // The token first, as the members' routes check theirs before anything else.
        const claims = guestClaimsOf(ctx, request.headers.authorization);
        if (!effectiveMethod(request, ['POST'])) throw unsupportedOverride(request, ['POST']);
        const refusal = protocolRefusal(request, 'POST');
        if (refusal) return refuse(reply, refusal);
        const guest = await requireGuest(ctx, claims);
        const metadataHeader = request.headers['upload-metadata'];
        let metadata: Record<string, string | null>;
        try {
          metadata = Metadata.parse(
            typeof metadataHeader === 'string' ? metadataHeader : undefined,
          );
        } catch {
          throw new AppError('invalidInput', { message: 'Upload-Metadata is malformed' });
        }
        const details = guestDetails(guest, metadata);
        const length = request.headers['upload-length'];
        const { uploadId } = checkUploadLength(
          deps,
          typeof length === 'string' ? length : undefined,
          guest.access.collection,
        );
        await toTus(request, reply, 'POST', {
          actor: guest.access.actor,
          request: request.raw,
          uploadId,
          access: guest.access,
          guest: { linkId: guest.link.id, guestId: claims.guestId, ...details },
          location: guestLocation(uploadId),
        });
        return reply;
      },
    );

    async function onGuestUpload(
      request: FastifyRequest<{ Params: { uploadId: string } }>,
      reply: FastifyReply,
    ): Promise<FastifyReply> {
      const claims = guestClaimsOf(ctx, request.headers.authorization);
      const method = effectiveMethod(request, UPLOAD_METHODS);
      if (!method) throw unsupportedOverride(request, UPLOAD_METHODS);
      const refusal = protocolRefusal(request, method);
      if (refusal) return refuse(reply, refusal);
      const guest = await requireGuest(ctx, claims);
      const { uploadId } = request.params;
      const row = isUuid(uploadId) ? await findUpload(ctx.db, uploadId) : undefined;
      if (!row || row.link_id !== guest.link.id || row.guest_id !== claims.guestId) {
        throw new AppError('notFound');
      }
      const actor = guest.access.actor;
      if (row.status === 'completed') return answerCompleted(request, reply, method, row.size);
      const complete = method === 'HEAD' ? await findCompleteUpload(deps, row) : null;
      if (complete) {
        await backend.release(row.id, await finishUpload(deps, actor, row, complete.metadata));
        return answerCompleted(request, reply, method, row.size);
      }
      await toTus(request, reply, method, {
        actor,
        request: request.raw,
        uploadId: row.id,
        location: guestLocation(row.id),
        expiresAt: row.expires_at,
      });
      return reply;
    }

    const guestUploadParams = z.object({ uploadId: z.string().max(100) });
    for (const method of UPLOAD_METHODS) {
      app.route({
        method,
        url: '/guest/uploads/:uploadId',
        exposeHeadRoute: false,
        schema: {
          tags,
          summary: {
            HEAD: "The offset of a guest's resumable upload (tus)",
            PATCH: "Append bytes to a guest's upload at Upload-Offset (tus)",
            DELETE: "Abandon a guest's upload in progress (tus termination)",
          }[method],
          operationId: TUS_OPERATIONS[method].operationId.replace('Upload', 'GuestUpload'),
          description: GUEST_TUS,
          security: GUEST,
          params: guestUploadParams,
          errors: [
            ...TUS_OPERATIONS[method].errors.filter((code) => code !== 'forbidden'),
            'uploadLinkNotFound',
          ],
          answers: TUS_OPERATIONS[method].answers,
        },
        config: { rateLimit, swagger: { exposeHeadRoute: method === 'HEAD' } },
        onRequest: authenticateGuest(ctx),
        handler: onGuestUpload,
      });
    }
    app.post(
      '/guest/uploads/:uploadId',
      {
        schema: { hide: true, params: guestUploadParams },
        config: { rateLimit },
        onRequest: authenticateGuest(ctx),
      },
      (request, reply) => {
        if (request.headers['x-http-method-override'] === undefined) {
          return reply.callNotFound();
        }
        return onGuestUpload(request, reply);
      },
    );
  };
}

/**
 * An upload that is already a file: its bytes left the tus store, so HEAD answers for it, an
 * empty PATCH at its end is a no-op (a retried last request), anything else is refused. A PATCH
 * at its end with bytes goes past its Upload-Length: 413, as tus answers such a PATCH on an upload
 * in progress, and nothing is kept.
 */
async function answerCompleted(
  request: FastifyRequest,
  reply: FastifyReply,
  method: UploadMethod,
  size: number,
) {
  reply.header('Tus-Resumable', TUS_RESUMABLE).header('Cache-Control', 'no-store');
  if (method === 'HEAD') {
    return reply
      .header('Upload-Offset', String(size))
      .header('Upload-Length', String(size))
      .status(200)
      .send();
  }
  if (method === 'PATCH' && request.headers['upload-offset'] === String(size)) {
    if (await hasBody(request.raw)) {
      throw new AppError('fileTooLarge', {
        message: `The upload is complete: its ${size} bytes all arrived, and nothing goes past Upload-Length`,
      });
    }
    return reply.header('Upload-Offset', String(size)).status(204).send();
  }
  if (method === 'PATCH') throw new AppError('uploadOffsetMismatch');
  throw new AppError('invalidInput', {
    message: 'The upload is complete: delete the file instead',
  });
}

/**
 * Whether a request carries at least one byte of body: Content-Length says so, and a chunked body
 * is read up to its first byte (or its end, if it is empty); the rest is let through unread.
 */
async function hasBody(request: IncomingMessage): Promise<boolean> {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  if (request.headers['transfer-encoding'] === undefined) return false;
  return new Promise<boolean>((resolve, reject) => {
    const settle = (result: boolean | Error) => {
      request.off('data', onData).off('end', onEnd).off('error', onError);
      // Drained, not destroyed: the answer still goes out on this connection.
      request.resume();
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      if (chunk.length > 0) settle(true);
    };
    const onEnd = () => settle(false);
    const onError = (error: Error) => settle(error);
    request.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
