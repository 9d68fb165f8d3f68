import {
  authResultResponseSchema,
  forgotPasswordRequestSchema,
  newPasswordRequestSchema,
  refreshRequestSchema,
  resendVerificationRequestSchema,
  resetPasswordRequestSchema,
  signInRequestSchema,
  signOutRequestSchema,
  signUpRequestSchema,
  verifyEmailRequestSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { PUBLIC } from '../http/api-docs.js';
import { bearerToken, userOfAccessToken } from './auth-hook.js';
import { requestDevice } from './devices.js';
import { AppError } from '../errors/app-error.js';
import { forgotPassword, resetPassword } from './password.service.js';
import { refreshSession, revokeAllSessions } from './sessions.js';
import { setNewPassword, signIn } from './signin.service.js';
import { signUp, verifyEmail } from './signup.service.js';
import { resendVerification } from './verification-resend.job.js';

/**
 * A chosen password is checked against the §5 policy by the service, so a weak one is
 * `invalidPassword` rather than a generic schema failure.
 */
const chosenPassword = z.string().trim().min(1).max(200);
const empty = z.object({});
const tags = ['auth'];
const security = PUBLIC;

/** Anonymous endpoints that cost a password hash get a tight per-address limit on top. */
const strict = { rateLimit: { max: 20, timeWindow: 60_000 } };

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    app.post(
      '/auth/signup',
      {
        schema: {
          tags,
          operationId: 'signUp',
          security,
          errors: [
            'restrictedAccess',
            'invalidEmail',
            'invalidPassword',
            'userAlreadyExists',
            'accountAliasAlreadyExists',
            'alreadySignedUp',
          ],
          summary: 'Sign up with e-mail and password; a verification e-mail follows',
          body: signUpRequestSchema.extend({ password: chosenPassword }),
          response: { 201: z.object({ userId: z.uuid(), username: z.string() }) },
        },
        config: strict,
      },
      async (request, reply) => reply.status(201).send(await signUp(ctx, request.body)),
    );

    app.post(
      '/auth/verify-email',
      {
        schema: {
          tags,
          operationId: 'verifyEmail',
          security,
          errors: [
            'invalidVerification',
            'wrongVerificationCode',
            'expiredVerificationCode',
            'userAlreadyExists',
          ],
          summary: 'Confirm an e-mail address with the code from the link',
          body: verifyEmailRequestSchema,
          response: {
            200: z.object({
              verified: z.literal(true),
              /**
               * Present when the address had two sign-ups with different passwords: no
               * password was kept, and this code of a reset link lets the person choose one.
               */
              resetCode: z.string().optional(),
            }),
          },
        },
        config: strict,
      },
      async (request) => {
        const { resetCode } = await verifyEmail(ctx, request.body);
        return { verified: true as const, ...(resetCode === undefined ? {} : { resetCode }) };
      },
    );

    app.post(
      '/auth/resend-verification',
      {
        schema: {
          tags,
          operationId: 'resendVerification',
          security,
          errors: ['invalidEmail'],
          summary: 'Send a new verification link to an address whose sign-up is not verified yet',
          description:
            'Answers 200 with the same body whether or not the address has an account and whether or not it is verified: a job mails a fresh link (older links stop working) only to an e-mail/password sign-up still unverified, within the recipient mail limit (5 an hour, 20 a day). At most 10 requests per client address an hour, then 429 tooManyRequests.',
          body: resendVerificationRequestSchema,
          response: { 200: empty },
        },
        config: strict,
      },
      async (request) => {
        await resendVerification(ctx, request.body, request.ip);
        return {};
      },
    );

    app.post(
      '/auth/signin',
      {
        schema: {
          tags,
          operationId: 'signIn',
          security,
          errors: [
            'notAuthorized',
            'notConfirmed',
            'newPasswordRequired',
            'invalidEmail',
            'teamRequired',
            'teamNotFound',
          ],
          summary: 'Sign in with e-mail or username (plus team for internal members) and password',
          description:
            'Errors: notAuthorized (unknown user or wrong password, indistinguishable), teamRequired (a username without `team` that did not sign in) and teamNotFound (a `team` that is no team), answered alike whether or not the username exists, notConfirmed, tooManyRequests, newPasswordRequired (403, data: { session, teamId, username }).',
          body: signInRequestSchema,
          response: { 200: authResultResponseSchema },
        },
        config: strict,
      },
      async (request) => ({
        result: await signIn(ctx, request.body, request.ip, requestDevice(request)),
      }),
    );

    app.post(
      '/auth/new-password',
      {
        schema: {
          tags,
          operationId: 'setNewPassword',
          security,
          errors: ['notAuthorized', 'expiredToken', 'invalidPassword', 'samePassword'],
          summary: "Choose a password at an internal member's first sign-in",
          body: newPasswordRequestSchema.extend({ newPassword: chosenPassword }),
          response: { 200: authResultResponseSchema },
        },
        config: strict,
      },
      async (request) => ({
        result: await setNewPassword(ctx, request.body, requestDevice(request)),
      }),
    );

    app.post(
      '/auth/refresh',
      {
        schema: {
          tags,
          operationId: 'refreshSession',
          security,
          errors: ['invalidAuthorization'],
          summary: 'Exchange a refresh token for new tokens; the refresh token rotates',
          description:
            'Presenting a refresh token that was already used revokes its whole session family.',
          body: refreshRequestSchema,
          response: { 200: authResultResponseSchema },
        },
      },
      async (request) => ({ result: await refreshSession(ctx, request.body.refreshToken) }),
    );

    app.post(
      '/auth/signout',
      {
        schema: {
          tags,
          operationId: 'signOut',
          security,
          errors: ['invalidAuthorization'],
          summary: "End every session of the token's user",
          description:
            'The access token must be valid and current, as on any signed-in route: an expired one, or one from before the last sign-out or password change, is 401 invalidAuthorization. When the request also carries an Authorization header, its token must be valid and of the same user, else 401 invalidAuthorization and nothing ends.',
          body: signOutRequestSchema,
          response: { 200: empty },
        },
      },
      async (request) => {
        const user = await userOfAccessToken(ctx, request.body.accessToken);
        // A request that also authenticates must be the same user's: a token of one account in
        // the body of another's signed-in call ends nobody's sessions.
        const header = bearerToken(request);
        if (header !== null && header !== request.body.accessToken) {
          const caller = await userOfAccessToken(ctx, header);
          if (caller.id !== user.id) {
            throw new AppError('invalidAuthorization', {
              message: 'The Authorization header and the body name different users',
            });
          }
        }
        await ctx.db.transaction().execute((trx) => revokeAllSessions(trx, user.id, ctx.clock()));
        return {};
      },
    );

    app.post(
      '/auth/forgot-password',
      {
        schema: {
          tags,
          operationId: 'forgotPassword',
          security,
          errors: ['invalidEmail'],
          summary: 'Send a password reset link; answers the same for unknown addresses',
          body: forgotPasswordRequestSchema,
          response: { 200: empty },
        },
        config: strict,
      },
      async (request) => {
        await forgotPassword(ctx, request.body);
        return {};
      },
    );

    app.post(
      '/auth/reset-password',
      {
        schema: {
          tags,
          operationId: 'resetPassword',
          security,
          errors: [
            'invalidResetLink',
            'invalidPassword',
            'wrongVerificationCode',
            'expiredVerificationCode',
            'usedResetLink',
          ],
          summary:
            'Set a new password with the code from the reset link; ends every session and e-mails a security notice',
          body: resetPasswordRequestSchema.extend({ newPassword: chosenPassword }),
          response: { 200: empty },
        },
        config: strict,
      },
      async (request) => {
        await resetPassword(ctx, request.body);
        return {};
      },
    );

    return Promise.resolve();
  };
}
