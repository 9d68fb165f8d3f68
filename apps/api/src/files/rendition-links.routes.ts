import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { StorageNotFoundError } from '../storage/storage.js';
import { requireGrantedRendition } from './files.service.js';
import { readRenditionToken } from './rendition-links.js';
import { PUBLIC } from '../http/api-docs.js';

/**
 * GET /renditions/{token}: the thumbnail or preview WebP a rendition link grants. No session:
 * the link is an `<img src>`. Tampered or malformed → 400 invalidDownload, expired → 410
 * expiredToken, and the access of the user it was issued to is checked again → 404 notFound.
 */
export function renditionLinksRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    // A wildcard because a token is longer than the router's 100-character limit for a `:param`.
    app.get(
      '/renditions/*',
      {
        schema: {
          operationId: 'getRendition',
          security: PUBLIC,
          errors: ['invalidDownload', 'expiredToken', 'notFound'],
          answers: { 200: { description: 'The WebP image', contentType: 'image/webp' } },
          tags: ['files'],
          summary: "A file's thumbnail or preview (WebP), by the link in the file's answer",
          description:
            'The link works without the Authorization header until it expires, and only while the user it was issued to may still see the file. invalidDownload (400) for a link not made here, expiredToken (410), notFound (404).',
          params: z.object({ '*': z.string() }),
        },
        // A page of files shows 20 thumbnails and the preview walks through 1600 px images, so
        // one person scrolling a large collection asks for hundreds a minute; each is a signed
        // link checked without a session. Ten times the general limit, as for uploads.
        config: {
          rateLimit: {
            max: ctx.config.rateLimit.max * 10,
            timeWindow: ctx.config.rateLimit.windowMs,
          },
        },
      },
      async (request, reply) => {
        const grant = readRenditionToken(ctx.config.secret, request.params['*']);
        if (grant === null)
          throw new AppError('invalidDownload', { message: 'Invalid image link' });
        const now = Math.floor(ctx.clock() / 1000);
        if (now >= grant.expiresAt)
          throw new AppError('expiredToken', { message: 'This image link has expired' });
        const key = await requireGrantedRendition(ctx, grant);
        const info = await ctx.storage.stat(key);
        if (info === null) throw new AppError('notFound');
        let body;
        try {
          body = await ctx.storage.get(key);
        } catch (err) {
          // Deleted between stat and open.
          if (err instanceof StorageNotFoundError) throw new AppError('notFound', { cause: err });
          throw err;
        }
        return reply
          .header('content-type', 'image/webp')
          .header('content-length', info.size)
          .header('cache-control', `private, max-age=${grant.expiresAt - now}`)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', 'sandbox')
          .send(body);
      },
    );
    return Promise.resolve();
  };
}
