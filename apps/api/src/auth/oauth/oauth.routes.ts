import { authResultResponseSchema } from '@raccolta/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { PUBLIC } from '../../http/api-docs.js';
import { AppError } from '../../errors/app-error.js';
import { OAUTH_CLIENT_ID } from './authorize-request.js';
import {
  clearedOauthCookie,
  OAUTH_COOKIE,
  oauthCookie,
  oauthCookieOptions,
  readCookie,
} from './oauth-cookie.js';
import {
  completeCallback,
  exchangeCode,
  startAuthorization,
  TRANSACTION_TTL_MS,
  type OauthOutcome,
} from './oauth.service.js';
import { requestDevice } from '../devices.js';
import { createOidcProviders } from './providers.js';

const tags = ['auth'];
const security = PUBLIC;
const param = z.string().max(2048).optional();

/**
 * Every parameter is optional here: which of them are wrong decides whether the answer may be a
 * redirect, so the service checks them rather than the schema.
 */
const authorizeQuerySchema = z.object({
  identity_provider: param,
  client_id: param,
  response_type: param,
  redirect_uri: param,
  scope: param,
  state: param,
  code_challenge: param,
  code_challenge_method: param,
  ui_locales: param,
});

const callbackQuerySchema = z.looseObject({
  state: param,
  error: param,
  error_description: param,
});

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

const tokenRequestSchema = z.object({
  grant_type: z.literal('authorization_code'),
  code: z.string().min(1).max(512),
  code_verifier: z.string().regex(CODE_VERIFIER),
  redirect_uri: z.string().min(1).max(2048),
  client_id: z.literal(OAUTH_CLIENT_ID),
});

const providersResponseSchema = z.object({
  providers: z.array(z.object({ id: z.string(), name: z.string() })),
});

/**
 * The API as the web app's identity provider: an authorization-code flow with PKCE in front of the
 * external OpenID Connect providers (spec §7 Auth, §9 OAuth).
 */
export function oauthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const providers = createOidcProviders(ctx.config, ctx.clock);
    const cookieOptions = oauthCookieOptions(ctx.config.apiPublicUrl);

    // Standard OAuth clients post the token request as a form; scoped to these routes.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    function answer(reply: FastifyReply, outcome: OauthOutcome, cookie?: string): FastifyReply {
      reply.header('cache-control', 'no-store');
      if (cookie !== undefined) reply.header('set-cookie', cookie);
      if (outcome.kind === 'refused')
        throw new AppError('invalidRequest', { message: outcome.message });
      return reply.redirect(outcome.location, 302);
    }

    app.get(
      '/auth/providers',
      {
        schema: {
          tags,
          operationId: 'listAuthProviders',
          security,
          summary: 'The external identity providers configured on this server',
          response: { 200: providersResponseSchema },
        },
      },
      () => ({ providers: providers.list().map(({ id, name }) => ({ id, name })) }),
    );

    app.get(
      '/oauth2/authorize',
      {
        schema: {
          tags,
          operationId: 'authorize',
          security,
          errors: ['invalidRequest'],
          answers: {
            302: {
              description: 'On to the provider, or back to redirect_uri with error and state',
              headers: { Location: 'Where the browser goes next' },
            },
          },
          summary:
            "Start a sign-in at an external identity provider (the web app's OAuth authorize)",
          description:
            'Authorization code with PKCE S256. A redirect_uri not on the allowed list (or a wrong client_id) ' +
            'answers 400 invalidRequest; any other bad parameter redirects to redirect_uri with error, ' +
            'error_description and state. Otherwise 302 to the provider, with a cookie binding this browser.',
          querystring: authorizeQuerySchema,
        },
      },
      async (request, reply) => {
        const outcome = await startAuthorization(ctx, providers, request.query);
        // Only a started login sets the cookie: a refused request leaves another tab's login alone.
        const cookie =
          outcome.kind === 'redirect' && outcome.transactionId
            ? oauthCookie(outcome.transactionId, TRANSACTION_TTL_MS / 1000, cookieOptions)
            : undefined;
        return answer(reply, outcome, cookie);
      },
    );

    app.get(
      '/oauth2/callback/:provider',
      {
        schema: {
          tags,
          operationId: 'completeSignIn',
          security,
          errors: ['invalidRequest'],
          answers: {
            302: {
              description: 'Back to the web app with code and state, or with error',
              headers: { Location: 'The redirect_uri of the sign-in, with its query' },
            },
          },
          summary: 'Where the external provider sends the browser back',
          description:
            'Without a sign-in started in this browser (cookie and state) the answer is 400 invalidRequest. ' +
            'Otherwise 302 to the web app with code and state, or with error and error_description.',
          params: z.object({ provider: z.string().max(64) }),
          querystring: callbackQuerySchema,
        },
      },
      async (request, reply) => {
        const { query } = request;
        const queryStart = request.url.indexOf('?');
        const outcome = await completeCallback(ctx, providers, {
          providerId: request.params.provider,
          transactionId: readCookie(request.headers.cookie, OAUTH_COOKIE),
          state: query.state,
          error: query.error,
          errorDescription: query.error_description,
          rawQuery: queryStart === -1 ? '' : request.url.slice(queryStart + 1),
        });
        // A refused callback consumed nothing: the browser's own login, if any, must still work.
        const cookie = outcome.kind === 'redirect' ? clearedOauthCookie(cookieOptions) : undefined;
        return answer(reply, outcome, cookie);
      },
    );

    app.post(
      '/oauth2/token',
      {
        schema: {
          tags,
          operationId: 'exchangeCode',
          security,
          errors: ['invalidAuthorization'],
          summary: 'Exchange the one-time code from /auth/callback for the token set',
          description:
            'JSON or form-encoded. A wrong, used or expired code, a code_verifier that does not match ' +
            'the code_challenge, or another redirect_uri: 401 invalidAuthorization (the code is used up).',
          body: tokenRequestSchema,
          response: { 200: authResultResponseSchema },
        },
      },
      async (request, reply) => {
        const { code, code_verifier: codeVerifier, redirect_uri: redirectUri } = request.body;
        const result = await exchangeCode(
          ctx,
          { code, codeVerifier, redirectUri },
          requestDevice(request),
        );
        reply.header('cache-control', 'no-store');
        return { result };
      },
    );

    return Promise.resolve();
  };
}
