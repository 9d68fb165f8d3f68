import { clientConfigResponseSchema, type ClientConfigResponse } from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { PUBLIC } from '../http/api-docs.js';

/**
 * What the server's configuration tells the web app before anyone signs in: the feature flags and
 * the analytics to load once the visitor consents. Public, and the same for every caller.
 */
export function clientConfigRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const body: ClientConfigResponse = {
    featureFlags: ctx.config.featureFlags,
    analytics: ctx.config.analytics,
  };
  return (app) => {
    app.get(
      '/client-config',
      {
        schema: {
          operationId: 'getClientConfig',
          security: PUBLIC,
          tags: ['client-config'],
          summary: 'Feature flags and analytics settings for the web app',
          response: { 200: clientConfigResponseSchema },
        },
      },
      () => body,
    );
    return Promise.resolve();
  };
}
