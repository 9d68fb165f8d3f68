import {
  authResultResponseSchema,
  passkeyRegisterRequestSchema,
  reauthenticateRequestSchema,
  recoveryCodesResponseSchema,
  secondFactorRequestSchema,
  secondFactorsResponseSchema,
  totpConfirmRequestSchema,
  totpDisableRequestSchema,
  totpEnrolmentResponseSchema,
} from '@raccolta/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { BEARER, PUBLIC } from '../../http/api-docs.js';
import { actorOf, authenticate } from '../auth-hook.js';
import { requestDevice } from '../devices.js';
import {
  addPasskey,
  completeSecondFactor,
  confirmTotp,
  disableTotp,
  passkeyRegistrationOptions,
  regenerateRecoveryCodes,
  reauthenticate,
  removePasskey,
  requireRecentSignIn,
  secondFactorStatus,
  startTotpEnrolment,
} from './second-factor.service.js';

const tags = ['second factors'];
const empty = z.object({});
const options = z.looseObject({ challenge: z.string() });
const strict = { rateLimit: { max: 20, timeWindow: 60_000 } };

export function secondFactorRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const security = BEARER;
    const onRequest = authenticate(ctx);
    // Changing how one signs in: a recent sign-in or reauthentication in this session.
    const preHandler = async (request: FastifyRequest) =>
      requireRecentSignIn(ctx, actorOf(request), request.sessionId);

    app.post(
      '/auth/second-factor',
      {
        schema: {
          tags: ['auth'],
          operationId: 'completeSecondFactor',
          security: PUBLIC,
          errors: ['notAuthorized', 'expiredToken', 'wrongSecondFactorCode'],
          summary: 'Answer the secondFactorRequired step of a sign-in and get the token set',
          description:
            'The `challenge` comes from the secondFactorRequired error (403, data: { challenge, methods, webauthn? }) of POST /auth/signin or /oauth2/token; it lasts 5 minutes and is used up by a right answer. Send exactly one of `totp` (6 digits), `recoveryCode` (single use) or `webauthn` (an assertion for data.webauthn). Wrong answers count against the per-account sign-in limit (then 429 tooManyRequests).',
          body: secondFactorRequestSchema,
          response: { 200: authResultResponseSchema },
        },
        config: strict,
      },
      async (request) => ({
        result: await completeSecondFactor(ctx, request.body, requestDevice(request)),
      }),
    );

    app.post(
      '/users/@me/reauthenticate',
      {
        schema: {
          tags,
          operationId: 'reauthenticate',
          summary: 'Confirm it is you again, so this session may change how you sign in',
          description:
            'Send exactly one of `password` or `code` (a current authenticator code). Adding an authenticator app or a passkey, removing a passkey and new recovery codes need a sign-in or a reauthentication of the session within 10 minutes; otherwise they answer 403 reauthenticationRequired with data: { methods } (password, totp; empty: sign in again). Wrong answers count against the per-account sign-in limit (then 429 tooManyRequests).',
          security,
          errors: ['notAuthorized', 'wrongSecondFactorCode', 'reauthenticationRequired'],
          body: reauthenticateRequestSchema,
          response: { 200: empty },
        },
        onRequest,
        config: strict,
      },
      async (request) => {
        await reauthenticate(ctx, actorOf(request), request.sessionId, request.body);
        return {};
      },
    );

    app.get(
      '/users/@me/second-factors',
      {
        schema: {
          tags,
          operationId: 'getSecondFactors',
          summary: "The signed-in user's second factors",
          security,
          response: { 200: secondFactorsResponseSchema },
        },
        onRequest,
      },
      (request) => secondFactorStatus(ctx, actorOf(request)),
    );

    app.post(
      '/users/@me/totp',
      {
        schema: {
          tags,
          operationId: 'startTotpEnrolment',
          summary: 'Start adding an authenticator app: a new secret, active once confirmed',
          description:
            'The secret is answered only here; it is stored encrypted and never answered again.',
          security,
          errors: [
            'secondFactorNotAllowed',
            'secondFactorAlreadyEnabled',
            'reauthenticationRequired',
          ],
          response: { 200: totpEnrolmentResponseSchema },
        },
        onRequest,
        preHandler,
      },
      (request) => startTotpEnrolment(ctx, actorOf(request)),
    );

    app.post(
      '/users/@me/totp/confirm',
      {
        schema: {
          tags,
          operationId: 'confirmTotp',
          summary: 'Turn the authenticator app on with a current code',
          description:
            "Answers the account's 10 recovery codes when this is its first second factor (shown once).",
          security,
          errors: ['secondFactorNotAllowed', 'secondFactorNotEnabled', 'wrongSecondFactorCode'],
          body: totpConfirmRequestSchema,
          response: { 200: recoveryCodesResponseSchema },
        },
        onRequest,
      },
      (request) => confirmTotp(ctx, actorOf(request), request.body.code),
    );

    app.delete(
      '/users/@me/totp',
      {
        schema: {
          tags,
          operationId: 'disableTotp',
          summary: 'Turn the authenticator app off, with the password or a current code',
          security,
          errors: ['secondFactorNotEnabled', 'notAuthorized', 'wrongSecondFactorCode'],
          body: totpDisableRequestSchema,
          response: { 200: empty },
        },
        onRequest,
      },
      async (request) => {
        await disableTotp(ctx, actorOf(request), request.body);
        return {};
      },
    );

    app.post(
      '/users/@me/recovery-codes',
      {
        schema: {
          tags,
          operationId: 'regenerateRecoveryCodes',
          summary: 'Replace the recovery codes with 10 new ones; the old ones stop working',
          security,
          errors: ['secondFactorNotAllowed', 'secondFactorNotEnabled', 'reauthenticationRequired'],
          response: { 200: recoveryCodesResponseSchema },
        },
        onRequest,
        preHandler,
      },
      (request) => regenerateRecoveryCodes(ctx, actorOf(request)),
    );

    app.post(
      '/users/@me/passkeys/options',
      {
        schema: {
          tags,
          operationId: 'passkeyRegistrationOptions',
          summary: 'WebAuthn creation options for a new passkey (challenge valid 5 minutes)',
          security,
          errors: ['secondFactorNotAllowed', 'reauthenticationRequired'],
          response: { 200: options },
        },
        onRequest,
        preHandler,
      },
      async (request) => ({ ...(await passkeyRegistrationOptions(ctx, actorOf(request))) }),
    );

    app.post(
      '/users/@me/passkeys',
      {
        schema: {
          tags,
          operationId: 'addPasskey',
          summary: 'Add a named passkey from the browser’s registration response',
          description:
            "Answers the account's 10 recovery codes when this is its first second factor (shown once).",
          security,
          errors: ['secondFactorNotAllowed', 'wrongSecondFactorCode'],
          body: passkeyRegisterRequestSchema,
          response: { 201: recoveryCodesResponseSchema },
        },
        onRequest,
      },
      async (request, reply) =>
        reply.status(201).send(await addPasskey(ctx, actorOf(request), request.body)),
    );

    app.delete(
      '/users/@me/passkeys/:passkeyId',
      {
        schema: {
          tags,
          operationId: 'removePasskey',
          summary: 'Remove one of your passkeys',
          security,
          errors: ['notFound', 'reauthenticationRequired'],
          params: z.object({ passkeyId: z.uuid() }),
          response: { 200: empty },
        },
        onRequest,
        preHandler,
      },
      async (request) => {
        await removePasskey(ctx, actorOf(request), request.params.passkeyId);
        return {};
      },
    );
    return Promise.resolve();
  };
}
