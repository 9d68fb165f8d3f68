import {
  digestPreferenceSchema,
  digestUnsubscribeRequestSchema,
  digestUnsubscribeResponseSchema,
  putDigestPreferenceSchema,
  teamRefSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { BEARER, PUBLIC } from '../http/api-docs.js';
import { ONE_CLICK_BODY_LIMIT, ONE_CLICK_FORM_TYPES, oneClickBody } from '../http/one-click.js';
import { getOwnDigest, putOwnDigest, unsubscribeDigest } from './digests.service.js';

const tags = ['digests'];
const teamParams = z.object({ teamId: teamRefSchema });
const ACCESS_ERRORS =
  'authorizationRequired/invalidAuthorization (401); notFound (404) when the caller is not an active member of the team.';
/** As the newsletter's: mail providers send one-click unsubscribes from a few addresses. */
const unsubscribeLimit = { rateLimit: { max: 120, timeWindow: 60_000 } };
const LINK_KEYS = ['team', 'user', 'token'] as const;
/** The query of the List-Unsubscribe URL; validated as the body it becomes (oneClickBody). */
const linkQuerySchema = z.object({
  team: z.string().optional(),
  user: z.string().optional(),
  token: z.string().optional(),
});

export function digestsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const onRequest = authenticate(ctx);

    app.get(
      '/teams/:teamId/members/@me/digest',
      {
        schema: {
          operationId: 'getOwnDigest',
          errors: ['notFound'],
          tags,
          summary: "The caller's digest of new files in this team: never, daily or instant",
          description: `\`isDefault\`: not chosen yet, so the role's default (daily for owners and admins, never for the others). \`available\` is false for a member without an e-mail address (internal contributors), who receives none. ${ACCESS_ERRORS}`,
          security: BEARER,
          params: teamParams,
          response: { 200: digestPreferenceSchema },
        },
        onRequest,
      },
      (request) => getOwnDigest(ctx, actorOf(request), request.params.teamId),
    );

    app.put(
      '/teams/:teamId/members/@me/digest',
      {
        schema: {
          operationId: 'putOwnDigest',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: "Choose the caller's digest of new files in this team",
          description: `\`instant\` sends at most one e-mail per 15 minutes, \`daily\` one per 24 hours; each lists only files in collections the caller can see, each file once. invalidInput (400) for another value. ${ACCESS_ERRORS} forbidden (403) for a member without an e-mail address (internal contributors).`,
          security: BEARER,
          params: teamParams,
          body: putDigestPreferenceSchema,
          response: { 200: digestPreferenceSchema },
        },
        onRequest,
      },
      (request) =>
        putOwnDigest(ctx, actorOf(request), request.params.teamId, request.body.frequency),
    );

    // Its own scope, so the form bodies of RFC 8058 are taken by this route only.
    await app.register((scope) => {
      scope.addContentTypeParser(
        ONE_CLICK_FORM_TYPES,
        { parseAs: 'string', bodyLimit: ONE_CLICK_BODY_LIMIT },
        (request, body, done) => {
          try {
            done(null, oneClickBody(request, String(body), LINK_KEYS));
          } catch (err) {
            done(err as Error, undefined);
          }
        },
      );

      scope.withTypeProvider<ZodTypeProvider>().post(
        '/digests/unsubscribe',
        {
          schema: {
            operationId: 'unsubscribeDigest',
            security: PUBLIC,
            errors: ['invalidUnsubscribe'],
            tags,
            summary: "Stop a member's digests of one team (the web page, or a one-click POST)",
            description:
              "A JSON body `{ team, user, token }` (the /digests/unsubscribe page), or the List-Unsubscribe URL of a digest (`?team=…&user=…&token=…`) POSTed with the form body `List-Unsubscribe=One-Click`, urlencoded or multipart/form-data (RFC 8058). The member's digest of that team becomes `never`; their other teams' are unchanged. Again, or for someone no longer in the team, it answers the same. Errors: invalidUnsubscribe (400) when the token does not match, or a part is missing; invalidRequest (400) for another form body; tooManyRequests (429), 120 a minute per client address.",
            querystring: linkQuerySchema,
            body: digestUnsubscribeRequestSchema,
            response: { 200: digestUnsubscribeResponseSchema },
          },
          config: unsubscribeLimit,
        },
        async (request) => {
          await unsubscribeDigest(ctx, request.body);
          return { status: 'unsubscribed' as const };
        },
      );
      return Promise.resolve();
    });

    app.get(
      '/digests/unsubscribe',
      {
        schema: {
          operationId: 'openDigestUnsubscribeLink',
          security: PUBLIC,
          answers: {
            303: {
              description:
                'On to the /digests/unsubscribe page of the web app, with the same query',
              headers: { Location: 'The web page that asks before unsubscribing' },
            },
          },
          tags,
          summary: 'The List-Unsubscribe URL opened in a browser: on to the web page',
          description:
            'A GET changes nothing (link scanners fetch URLs too): it redirects (303) to the web page, which asks the API with a POST.',
          querystring: linkQuerySchema,
        },
        config: unsubscribeLimit,
      },
      (request, reply) => {
        const page = new URL('/digests/unsubscribe', `${ctx.config.publicUrl}/`);
        for (const key of LINK_KEYS) {
          const value = request.query[key];
          if (value !== undefined) page.searchParams.set(key, value);
        }
        return reply.redirect(page.toString(), 303);
      },
    );
  };
}
