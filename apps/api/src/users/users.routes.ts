import { meResponseSchema, updateProfileRequestSchema } from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf, authenticate } from '../auth/auth-hook.js';
import type { AppContext } from '../context.js';
import { presentUser } from './users.presenter.js';
import { updateProfile } from './users.service.js';
import { BEARER } from '../http/api-docs.js';

export function usersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    const security = BEARER;
    app.get(
      '/users/@me',
      {
        schema: {
          operationId: 'getMe',
          tags: ['users'],
          summary: 'The signed-in user',
          security,
          response: { 200: meResponseSchema },
        },
        onRequest: authenticate(ctx),
      },
      (request) => presentUser(actorOf(request)),
    );

    app.put(
      '/users/@me',
      {
        schema: {
          operationId: 'updateMe',
          tags: ['users'],
          summary: "Update the signed-in user's names",
          security,
          body: updateProfileRequestSchema,
          response: { 200: meResponseSchema },
        },
        onRequest: authenticate(ctx),
      },
      (request) => updateProfile(ctx, actorOf(request), request.body),
    );
    return Promise.resolve();
  };
}
