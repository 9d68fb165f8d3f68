import {
  createInternalMemberRequestSchema,
  credentialsSchema,
  idSchema,
  inviteMemberRequestSchema,
  memberListResponseSchema,
  memberPatchSchema,
  memberSchema,
  pageQuerySchema,
  teamRefSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { inviteMember } from '../invitations/invitations.service.js';
import { createInternalMember, resetInternalMemberPassword } from './internal-members.service.js';

import {
  getTeamMember,
  listTeamMembers,
  patchTeamMember,
  removeTeamMember,
} from './members.service.js';
import { BEARER } from '../http/api-docs.js';

const tags = ['members'];
const security = BEARER;
const teamParams = z.object({ teamId: teamRefSchema });
const memberParams = teamParams.extend({ memberId: idSchema });
const ACCESS_ERRORS =
  'authorizationRequired/invalidAuthorization (401); notFound (404) when the caller is not an active member of the team or the member is not in it; forbidden (403) when spec §6 does not allow the action.';

/** Invite by e-mail, or add an internal contributor (told apart by `username`). */
const createMemberBodySchema = z.union([
  inviteMemberRequestSchema,
  createInternalMemberRequestSchema,
]);

/** `credentials` only for an internal contributor, whose generated password is shown this once. */
const createMemberResponseSchema = z.object({
  member: memberSchema,
  credentials: credentialsSchema.optional(),
});

export function membersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const onRequest = authenticate(ctx);

    app.get(
      '/teams/:teamId/members',
      {
        schema: {
          operationId: 'listMembers',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: "The team's members, oldest first; `prefix` filters nicknames",
          description: `Paged by \`lastKey\` (invalidInput when it does not decode). ${ACCESS_ERRORS}`,
          security,
          params: teamParams,
          querystring: pageQuerySchema.extend({
            prefix: z
              .string({ error: 'invalidInput' })
              .max(30, { error: 'invalidInput' })
              .optional(),
          }),
          response: { 200: memberListResponseSchema },
        },
        onRequest,
      },
      (request) => listTeamMembers(ctx, actorOf(request), request.params.teamId, request.query),
    );

    app.get(
      '/teams/:teamId/members/:memberId',
      {
        schema: {
          operationId: 'getMember',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'One member of the team',
          description: ACCESS_ERRORS,
          security,
          params: memberParams,
          response: { 200: memberSchema },
        },
        onRequest,
      },
      (request) =>
        getTeamMember(ctx, actorOf(request), request.params.teamId, request.params.memberId),
    );

    app.post(
      '/teams/:teamId/members',
      {
        schema: {
          operationId: 'createMember',
          errors: [
            'notFound',
            'forbidden',
            'invalidEmail',
            'invalidTeamMember',
            'alreadyExists',
            'nicknameAlreadyExists',
            'tooManyRequests',
            'cannotSendInvitationEmail',
          ],
          tags,
          summary: 'Invite a member by e-mail, or add an internal contributor',
          description: `With \`email\`: an invitation mail in \`locale\` with accept and reject links; the member is \`invited\`. alreadyExists (409, data: { duplicate: member }) when that address is already a member's (duplicate: self when it is the caller's own); nicknameAlreadyExists (409); cannotSendInvitationEmail (502, data: { member }) when the mail server refused the mail — the member stays invited. With \`username\`: an internal uploader with a generated password, answered once in \`credentials\`; invalidInput (400) under 3 characters, the form's rule; alreadyExists (409, data: { duplicate: username }) when the username is taken in the team. ${ACCESS_ERRORS}`,
          security,
          params: teamParams,
          body: createMemberBodySchema,
          response: { 201: createMemberResponseSchema },
        },
        onRequest,
      },
      async (request, reply) => {
        const { body } = request;
        const actor = actorOf(request);
        const { teamId } = request.params;
        const created =
          'email' in body
            ? { member: await inviteMember(ctx, actor, teamId, body) }
            : await createInternalMember(ctx, actor, teamId, body);
        return reply.status(201).send(created);
      },
    );

    app.patch(
      '/teams/:teamId/members/:memberId',
      {
        schema: {
          operationId: 'patchMember',
          errors: ['notFound', 'forbidden', 'nicknameAlreadyExists'],
          tags,
          summary:
            "Change a member's role, nickname or status (RFC 6902 over /role, /nickname, /status)",
          description: `\`replace\` changes, \`test\` guards; operations apply in order and all or none. Each is checked with its spec §6 rule (change role, rename, disable, reactivate): forbidden (403) names the first refused. Another op or path, or a failed \`test\`: invalidInput (400). nicknameAlreadyExists (409). ${ACCESS_ERRORS}`,
          security,
          params: memberParams,
          body: memberPatchSchema,
          response: { 200: memberSchema },
        },
        onRequest,
      },
      (request) =>
        patchTeamMember(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.memberId,
          request.body,
        ),
    );

    app.delete(
      '/teams/:teamId/members/:memberId',
      {
        schema: {
          operationId: 'deleteMember',
          errors: ['notFound', 'forbidden'],
          tags,
          summary: 'Remove a member (never the owner, never oneself)',
          description: `An internal member's account is deleted with the membership. ${ACCESS_ERRORS}`,
          security,
          params: memberParams,
          response: { 204: z.null() },
        },
        onRequest,
      },
      async (request, reply) => {
        const { teamId, memberId } = request.params;
        await removeTeamMember(ctx, actorOf(request), teamId, memberId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/teams/:teamId/members/:memberId/new-password',
      {
        schema: {
          operationId: 'resetMemberPassword',
          errors: ['notFound', 'forbidden', 'invalidTeamMember'],
          tags,
          summary: 'A new generated password for an internal member, answered once',
          description: `The member's sessions end and a new password is required at the next sign-in. invalidTeamMember (400) for a member who is not internal. ${ACCESS_ERRORS}`,
          security,
          params: memberParams,
          response: { 200: credentialsSchema },
        },
        onRequest,
      },
      (request) =>
        resetInternalMemberPassword(
          ctx,
          actorOf(request),
          request.params.teamId,
          request.params.memberId,
        ),
    );
    return Promise.resolve();
  };
}
