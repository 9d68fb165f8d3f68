import type { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { PUBLIC } from '../http/api-docs.js';
import {
  downloadRepresentation,
  parseRangeHeader,
  type RangeDecision,
} from './download-headers.js';
import { isEncryptedKey } from './encryption.js';
import { isExpired, readSignedToken } from './signed-token.js';
import { StorageNotFoundError, type Storage } from './storage.js';

export interface StorageRoutesDeps {
  storage: Storage;
  signingSecret: string;
  clock?: () => Date;
  /** The web app's origins: they may frame a PDF served inline (the preview's viewer). */
  frameOrigins?: readonly string[];
  /** DOWNLOAD_OFFLOAD=nginx: where nginx's internal location serves the local files. */
  offload?: { prefix: string } | null;
}

type TokenRequest = FastifyRequest<{ Params: { '*': string } }>;

/**
 * Serves the links made by the storage's `signedUrl` (every link of the local driver; on S3 the
 * links of encrypted objects, which the encryption layer deciphers as this route reads them):
 * the token is the only credential, so the route needs no session and works for a plain
 * browser download.
 */
export function storageRoutes(deps: StorageRoutesDeps): FastifyPluginAsync {
  const { storage, signingSecret } = deps;
  const clock = deps.clock ?? (() => new Date());
  const frameOrigins = deps.frameOrigins ?? [];
  const offload = storage.kind === 'local' ? (deps.offload ?? null) : null;

  async function download(request: TokenRequest, reply: FastifyReply): Promise<FastifyReply> {
    const payload = readSignedToken(signingSecret, request.params['*']);
    if (payload === null) {
      throw new AppError('invalidDownload', { message: 'Invalid download link' });
    }
    const now = Math.floor(clock().getTime() / 1000);
    if (isExpired(payload, now)) {
      throw new AppError('expiredToken', { message: 'This download link has expired' });
    }
    const info = await storage.stat(payload.k);
    if (info === null) throw new AppError('notFound', { message: 'The file no longer exists' });

    // A validator we do not send can never match, so If-Range always means "send it all".
    const range: RangeDecision =
      request.headers['if-range'] === undefined
        ? parseRangeHeader(request.headers.range, info.size)
        : { kind: 'full' };

    reply.header('accept-ranges', 'bytes');
    if (range.kind === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${info.size}`).send();
    }

    const { contentType, contentDisposition } = downloadRepresentation({
      contentType: payload.t ?? info.contentType,
      fileName: payload.n,
      disposition: payload.d,
    });
    reply
      .header('content-type', contentType)
      .header('content-disposition', contentDisposition)
      .header('cache-control', `private, max-age=${payload.e - now}`)
      .header('x-content-type-options', 'nosniff');
    // Chrome's PDF viewer does not run in a sandboxed document; PDF is the one type let through.
    if (contentType.split(';')[0]?.trim().toLowerCase() !== 'application/pdf') {
      reply.header('content-security-policy', 'sandbox');
    } else if (contentDisposition.startsWith('inline') && frameOrigins.length > 0) {
      // The preview frames the browser's viewer; the web app's origins only, not any page.
      reply
        .header(
          'content-security-policy',
          `default-src 'none'; frame-ancestors ${frameOrigins.join(' ')}; base-uri 'none'`,
        )
        .removeHeader('x-frame-options');
    }

    // Behind nginx (DOWNLOAD_OFFLOAD=nginx), the node has checked the link; nginx sends the file
    // with sendfile, ranges and HEAD included, keeping the headers set above. Encrypted objects
    // are deciphered here, so they are still sent by the node.
    if (offload && !isEncryptedKey(payload.k)) {
      const target = payload.k.split('/').map(encodeURIComponent).join('/');
      return reply.header('x-accel-redirect', `${offload.prefix}${target}`).send();
    }

    if (range.kind === 'partial') {
      reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
        .header('content-length', range.end - range.start + 1);
    } else {
      reply.header('content-length', info.size);
    }
    // Fastify keeps our Content-Length on a HEAD answered without a body.
    if (request.method === 'HEAD') return reply.send();

    let body: Readable;
    try {
      body = await storage.get(
        payload.k,
        range.kind === 'partial' ? { start: range.start, end: range.end } : undefined,
      );
    } catch (error) {
      // Deleted between stat and open.
      if (error instanceof StorageNotFoundError) {
        throw new AppError('notFound', { message: 'The file no longer exists', cause: error });
      }
      throw error;
    }
    return reply.send(body);
  }

  const documented = (operationId: string, summary: string, body: boolean): FastifySchema => ({
    tags: ['files'],
    operationId,
    summary,
    description:
      "A link made by the storage's signedUrl (every link of local storage; on S3, the links of encrypted objects, deciphered here): the token is the only credential. Range requests are served (206); a range that cannot be satisfied answers 416 with `Content-Range: bytes */size`. invalidDownload (400) for a link not made here, expiredToken (410), notFound (404) once the file is gone.",
    security: PUBLIC,
    errors: ['invalidDownload', 'expiredToken', 'notFound'],
    answers: {
      200: {
        description: body ? 'The whole file' : 'The headers of the whole file',
        ...(body ? { contentType: 'application/octet-stream' } : {}),
        headers: {
          'Content-Disposition': 'attachment or inline, with the file name',
          'Accept-Ranges': 'bytes',
        },
      },
      206: {
        description: body ? 'The requested range' : 'The headers of the requested range',
        ...(body ? { contentType: 'application/octet-stream' } : {}),
        headers: { 'Content-Range': 'bytes start-end/size' },
      },
      416: {
        description: 'The range lies outside the file',
        headers: { 'Content-Range': 'bytes */size' },
      },
    },
  });

  return (app) => {
    // A wildcard because a token is longer than the router's 100-character limit for a
    // `:param`. HEAD is its own route since Fastify's automatic HEAD would read the whole file.
    app.route<{ Params: { '*': string } }>({
      method: 'HEAD',
      url: '/storage/*',
      schema: documented('headStoredFile', 'The headers a signed file link would answer', false),
      // The OpenAPI document leaves HEAD routes out unless a route asks.
      config: { swagger: { exposeHeadRoute: true } },
      handler: download,
    });
    app.route<{ Params: { '*': string } }>({
      method: 'GET',
      url: '/storage/*',
      exposeHeadRoute: false,
      schema: documented('getStoredFile', 'A file (or a range of it) by a signed link', true),
      handler: download,
    });
    return Promise.resolve();
  };
}
