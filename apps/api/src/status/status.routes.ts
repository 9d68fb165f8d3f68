import { STATUS_PROBLEMS, statusResponseSchema, type StatusProblem } from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { PUBLIC } from '../http/api-docs.js';

export function statusRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return (app) => {
    app.get(
      '/status',
      {
        schema: {
          operationId: 'getStatus',
          security: PUBLIC,
          tags: ['status'],
          summary: 'Health of the API, its database and its file storage',
          response: { 200: statusResponseSchema },
        },
        config: { rateLimit: false },
      },
      async () => {
        const failed = new Set<StatusProblem>();
        await Promise.all([
          ctx.checkDatabase().catch((err: unknown) => {
            ctx.logger.error({ err }, 'status: database check failed');
            failed.add('database');
          }),
          ctx.storage.health().catch((err: unknown) => {
            ctx.logger.error({ err }, 'status: storage check failed');
            failed.add('storage');
          }),
        ]);
        // In a fixed order, whichever check finished first.
        const problems = STATUS_PROBLEMS.filter((problem) => failed.has(problem));
        return {
          status: problems.length ? ('degraded' as const) : ('ok' as const),
          message: problems.length
            ? problems.map((problem) => `${problem} unavailable`).join('; ')
            : 'All systems operational',
          problems,
          timestamp: new Date(ctx.clock()).toISOString(),
        };
      },
    );
    return Promise.resolve();
  };
}
