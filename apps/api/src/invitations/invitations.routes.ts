import {
  acceptInvitationRequestSchema,
  memberRoleSchema,
  memberSchema,
  rejectInvitationRequestSchema,
  resendInvitationRequestSchema,
  teamRefSchema,
  tokenSetSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { actorOf, authenticate, bearerToken } from '../auth/auth-hook.js';
import { verifyAccessToken } from '../auth/tokens.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { findUserById, type UserRow } from '../users/users.repository.js';
import { acceptInvitation, rejectInvitation } from './invitation-answer.service.js';
import { resendInvitation } from './invitations.service.js';
import { requestDevice } from '../auth/devices.js';
import { BEARER, OPTIONAL_BEARER, PUBLIC } from '../http/api-docs.js';

const tags = ['invitations'];
const teamParams = z.object({ teamId: teamRefSchema });
/** Anonymous calls that may cost a password hash get a tight per-address limit, as in /auth. */
const strict = { rateLimit: { max: 20, timeWindow: 60_000 } };
/** The policy of a chosen password is checked by the service, so a weak one is invalidPassword. */
const chosenPassword = z.string().trim().min(1).max(200);

const acceptResponseSchema = z.object({
  membership: z.object({ role: memberRoleSchema, teamId: z.uuid(), teamName: z.string() }),
  auth: tokenSetSchema.nullable(),
});

const TOKEN_ERRORS =
  'invitationNotFound (404) for an unknown token, a replaced one or one of another team; invitationAlreadyHandled (409) once used or answered; expiredToken (410).';

/**
 * The signed-in user when the call carries a token (accepting works signed in or not). A token
 * that is present but bad is refused as `authenticate` would, so the client refreshes and retries.
 */
async function optionalCaller(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const claims = await verifyAccessToken(ctx.config, token, ctx.clock());
  const user = await findUserById(ctx.db, claims.sub);
  if (!user || user.token_version !== claims.sv) throw new AppError('invalidAuthorization');
  return user;
}

export function invitationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    app.post(
      '/teams/:teamId/invitations/resend',
      {
        schema: {
          operationId: 'resendInvitation',
          errors: ['notFound', 'forbidden', 'invalidTeamMember', 'cannotSendInvitationEmail'],
          tags,
          summary: 'Send an invited member a new invitation link; the older links stop working',
          description:
            'Answers the member with its new inviteExpiresAt. forbidden (403) unless the caller may update any member and the member is invited; cannotSendInvitationEmail (502, data: { member }); notFound (404) outside the team.',
          security: BEARER,
          params: teamParams,
          body: resendInvitationRequestSchema,
          response: { 200: memberSchema },
        },
        onRequest: authenticate(ctx),
        // Each call mails someone outside the team.
        config: strict,
      },
      (request) =>
        resendInvitation(ctx, actorOf(request), request.params.teamId, request.body.userId),
    );

    app.post(
      '/teams/:teamId/invitations/accept',
      {
        schema: {
          operationId: 'acceptInvitation',
          security: OPTIONAL_BEARER,
          errors: [
            'invalidAcceptToken',
            'invitationNotFound',
            'invitationAlreadyHandled',
            'expiredToken',
            'emailMismatch',
            'notLoggedIn',
            'newInvitedAccountRequired',
            'invalidPassword',
          ],
          tags,
          summary: 'Accept an invitation with the token of its link',
          description: `These flow errors carry data: { email, teamName, inviterName } (the invited address, the team, who invited; inviterName null when unknown), so the page can name them. Signed in as someone else: emailMismatch (403). Not signed in: notLoggedIn (401) when the invitee has an account of their own; newInvitedAccountRequired (409) when the invitation made the account and no \`password\` was sent — the retry with one completes the account (invalidPassword under the policy) and answers a session in \`auth\`. ${TOKEN_ERRORS}`,
          params: teamParams,
          body: acceptInvitationRequestSchema.extend({ password: chosenPassword.optional() }),
          response: { 200: acceptResponseSchema },
        },
        config: strict,
      },
      async (request) =>
        acceptInvitation(
          ctx,
          request.params.teamId,
          request.body,
          await optionalCaller(ctx, request),
          requestDevice(request),
        ),
    );

    app.post(
      '/teams/:teamId/invitations/reject',
      {
        schema: {
          operationId: 'rejectInvitation',
          security: PUBLIC,
          errors: [
            'invalidRejectToken',
            'invitationNotFound',
            'invitationAlreadyHandled',
            'expiredToken',
          ],
          tags,
          summary: 'Decline an invitation with the token of its link',
          description: `The link is enough; who is signed in does not matter. ${TOKEN_ERRORS}`,
          params: teamParams,
          body: rejectInvitationRequestSchema,
          response: { 200: z.object({ rejected: z.literal(true) }) },
        },
        config: strict,
      },
      async (request) => {
        await rejectInvitation(ctx, request.params.teamId, request.body.token);
        return { rejected: true as const };
      },
    );
    return Promise.resolve();
  };
}
