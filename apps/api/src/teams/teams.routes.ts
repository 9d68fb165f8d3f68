import {
  boundedJsonValueSchema,
  createAliasRequestSchema,
  createAliasResponseSchema,
  createTeamRequestSchema,
  createTeamResponseSchema,
  pageQuerySchema,
  teamListResponseSchema,
  teamSchema,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { createAlias, createTeam, getTeam, listTeams, patchTeam } from './teams.service.js';
import { BEARER } from '../http/api-docs.js';

const teamParams = z.object({
  teamId: z.string().min(1).max(64).describe('Team id, alias or short code (any case)'),
});
const patchSchema = z
  .array(
    z.object({
      op: z.enum(['add', 'replace', 'remove', 'test']),
      path: z.string().max(64),
      value: boundedJsonValueSchema.optional(),
    }),
  )
  .min(1)
  .max(20);

export function teamsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const common = { tags: ['teams'], security: BEARER };
    app.addHook('onRequest', authenticate(ctx));

    app.get(
      '/teams',
      {
        schema: {
          operationId: 'listTeams',
          ...common,
          summary: "The caller's teams, newest first, with the caller's role",
          querystring: pageQuerySchema.extend({ search: z.string().max(50).optional() }),
          response: { 200: teamListResponseSchema },
        },
      },
      (request) => listTeams(ctx, actorOf(request), request.query),
    );

    app.post(
      '/teams',
      {
        schema: {
          operationId: 'createTeam',
          errors: ['forbidden', 'invalidTeamName'],
          ...common,
          summary: 'Create a team; the caller becomes its owner (needs the global scope)',
          body: createTeamRequestSchema,
          response: { 201: createTeamResponseSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createTeam(ctx, actorOf(request), request.body)),
    );

    app.get(
      '/teams/:teamId',
      {
        schema: {
          operationId: 'getTeam',
          errors: ['notFound', 'forbidden'],
          ...common,
          summary: 'A team, by id, alias or short code',
          params: teamParams,
          response: { 200: teamSchema },
        },
      },
      (request) => getTeam(ctx, actorOf(request), request.params.teamId),
    );

    app.patch(
      '/teams/:teamId',
      {
        schema: {
          operationId: 'patchTeam',
          errors: ['notFound', 'forbidden', 'invalidTeamName'],
          ...common,
          summary: 'Change a team with an RFC 6902 JSON patch',
          description:
            'Paths /name, /description, /mode, /stripLocation (a boolean: uploads lose their GPS position before they are stored) (owner, admin), /starAlias and /requireSecondFactor (owner; a boolean: owners and admins without a second factor then get 403 secondFactorEnrolmentRequired on the routes of the team, all but GET /teams/{teamId}; the owner must have a factor to turn it on). Any other operation refuses the whole list with 400 invalidInput; nothing is applied.',
          params: teamParams,
          body: patchSchema,
          response: { 200: teamSchema },
        },
      },
      (request) => patchTeam(ctx, actorOf(request), request.params.teamId, request.body),
    );

    app.post(
      '/teams/:teamId/aliases',
      {
        schema: {
          operationId: 'createTeamAlias',
          errors: ['notFound', 'forbidden', 'alreadyExists', 'quotaExceededAliases'],
          ...common,
          summary:
            'Add a readable alias (owner); unique across teams, never changed, the newest is preferred',
          params: teamParams,
          body: createAliasRequestSchema,
          response: { 201: createAliasResponseSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await createAlias(ctx, actorOf(request), request.params.teamId, request.body)),
    );
    return Promise.resolve();
  };
}
