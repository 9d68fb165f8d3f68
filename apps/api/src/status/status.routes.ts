import { statusResponseSchema } from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';

export function statusRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/status',
      {
        schema: {
          tags: ['status'],
          summary: 'Health of the API, its database and its file storage',
          response: { 200: statusResponseSchema },
        },
        config: { rateLimit: false },
      },
      async () => {
        const problems: string[] = [];
        await Promise.all([
          ctx.checkDatabase().catch((err: unknown) => {
            ctx.logger.error({ err }, 'status: database check failed');
            problems.push('database unavailable');
          }),
          ctx.storage.health().catch((err: unknown) => {
            ctx.logger.error({ err }, 'status: storage check failed');
            problems.push('storage unavailable');
          }),
        ]);
        return {
          status: problems.length ? ('degraded' as const) : ('ok' as const),
          message: problems.length ? problems.join('; ') : 'All systems operational',
          timestamp: new Date(ctx.clock()).toISOString(),
        };
      },
    );
    return Promise.resolve();
  };
}
