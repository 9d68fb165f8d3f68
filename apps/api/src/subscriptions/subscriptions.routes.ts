import {
  confirmSubscriptionRequestSchema,
  confirmSubscriptionResponseSchema,
  subscribeRequestSchema,
  subscribeResponseSchema,
  unsubscribeRequestSchema,
  unsubscribeResponseSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { ONE_CLICK_BODY_LIMIT, ONE_CLICK_FORM_TYPES, oneClickBody } from '../http/one-click.js';
import { localeOfAcceptLanguage } from './subscription-links.js';
import { confirmSubscription, subscribe, unsubscribe } from './subscriptions.service.js';
import { PUBLIC } from '../http/api-docs.js';

const tags = ['newsletter'];

/**
 * Per client address, on top of the global limit. Subscribing sends mail, so it is the tightest
 * (and each recipient's mail is limited as well); unsubscribing is the loosest, because mail
 * providers send one-click unsubscribes for all their users from a few addresses, and each
 * request needs the address's HMAC token anyway.
 */
const limits = {
  subscribe: { rateLimit: { max: 10, timeWindow: 60_000 } },
  confirm: { rateLimit: { max: 20, timeWindow: 60_000 } },
  unsubscribe: { rateLimit: { max: 120, timeWindow: 60_000 } },
};

/** The query of the List-Unsubscribe URL; validated as the body it becomes (oneClickBody). */
const linkQuerySchema = z.object({
  email: z.string().optional(),
  token: z.string().optional(),
});

export function subscriptionsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/subscriptions',
      {
        schema: {
          operationId: 'subscribe',
          security: PUBLIC,
          errors: ['termsRequired', 'invalidEmail', 'alreadySubscribed'],
          tags,
          summary: 'Subscribe to the newsletter (double opt-in: a confirmation e-mail follows)',
          description:
            'Answers 202 `{ status: "pending" }`: the address counts only once the link of the confirmation e-mail is used (POST /subscriptions/confirm). The e-mail is in `locale`, else in the language of Accept-Language (Italian when it lists Italian, else English). A pending address gets a new link (older ones keep working until they expire), at most 5 an hour and 20 a day per address; beyond that the answer is the same and nothing is sent. Errors: termsRequired (400) unless termsVersion and privacyVersion are the versions in force; invalidEmail (400); alreadySubscribed (409) for a confirmed address; tooManyRequests (429), 10 a minute per client address.',
          body: subscribeRequestSchema,
          response: { 202: subscribeResponseSchema },
        },
        config: limits.subscribe,
      },
      async (request, reply) => {
        const locale =
          request.body.locale ?? localeOfAcceptLanguage(request.headers['accept-language']);
        await subscribe(ctx, request.body, locale);
        return reply.status(202).send({ status: 'pending' as const });
      },
    );

    app.post(
      '/subscriptions/confirm',
      {
        schema: {
          operationId: 'confirmSubscription',
          security: PUBLIC,
          errors: ['invalidSubscriptionConfirmation'],
          tags,
          summary: 'Confirm a subscription with the token of the confirmation e-mail',
          description: `Answers \`{ status: "confirmed" }\`: the address receives the newsletter from now on, starting with a welcome e-mail. Every link sent to a pending address works until it expires (48 hours), not only the newest. A link of an address confirmed before (used again, or an older link) answers \`{ status: "alreadyConfirmed" }\` and changes nothing. Errors: invalidSubscriptionConfirmation (400) for a wrong or expired link, or one of an address no longer subscribed; tooManyRequests (429), 20 a minute per client address.`,
          body: confirmSubscriptionRequestSchema,
          response: { 200: confirmSubscriptionResponseSchema },
        },
        config: limits.confirm,
      },
      async (request) => ({ status: await confirmSubscription(ctx, request.body) }),
    );

    // Its own scope, so the form bodies of RFC 8058 are taken by this route only.
    await app.register((scope) => {
      scope.addContentTypeParser(
        ONE_CLICK_FORM_TYPES,
        { parseAs: 'string', bodyLimit: ONE_CLICK_BODY_LIMIT },
        (request, body, done) => {
          try {
            done(null, oneClickBody(request, String(body), ['email', 'token']));
          } catch (err) {
            done(err as Error, undefined);
          }
        },
      );

      scope.withTypeProvider<ZodTypeProvider>().post(
        '/subscriptions/unsubscribe',
        {
          schema: {
            operationId: 'unsubscribe',
            security: PUBLIC,
            errors: ['invalidUnsubscribe', 'cannotUnsubscribe'],
            tags,
            summary: 'Unsubscribe from the newsletter (the web page, or a one-click POST)',
            description:
              'A JSON body `{ email, token }` (the /unsubscribe page), or the List-Unsubscribe URL of a newsletter e-mail (`?email=…&token=…`) POSTed with the form body `List-Unsubscribe=One-Click`, urlencoded or multipart/form-data (RFC 8058). No more newsletter e-mail goes to the address; it is deleted within a day and a bit (5 days at most). Unsubscribing again answers the same. Errors: invalidUnsubscribe (400) when the token does not match the address, or a part is missing; cannotUnsubscribe (404) when the address has no subscription; tooManyRequests (429), 120 a minute per client address.',
            querystring: linkQuerySchema,
            body: unsubscribeRequestSchema,
            response: { 200: unsubscribeResponseSchema },
          },
          config: limits.unsubscribe,
        },
        async (request) => {
          await unsubscribe(ctx, request.body);
          return { status: 'unsubscribed' as const };
        },
      );
      return Promise.resolve();
    });

    app.get(
      '/subscriptions/unsubscribe',
      {
        schema: {
          operationId: 'openUnsubscribeLink',
          security: PUBLIC,
          answers: {
            303: {
              description: 'On to the /unsubscribe page of the web app, with the same query',
              headers: { Location: 'The web page that asks before unsubscribing' },
            },
          },
          tags,
          summary: 'The List-Unsubscribe URL opened in a browser: on to the /unsubscribe page',
          description:
            'Mail clients without one-click support open the List-Unsubscribe URL. A GET changes nothing (link scanners fetch URLs too): it redirects (303) to the web page, which asks the API with a POST.',
          querystring: linkQuerySchema,
        },
        config: limits.unsubscribe,
      },
      (request, reply) => {
        const page = new URL('/unsubscribe', `${ctx.config.publicUrl}/`);
        for (const key of ['email', 'token'] as const) {
          const value = request.query[key];
          if (value !== undefined) page.searchParams.set(key, value);
        }
        return reply.redirect(page.toString(), 303);
      },
    );
  };
}
