import {
  liveResponseSchema,
  READINESS_PROBLEMS,
  readyResponseSchema,
  STATUS_PROBLEMS,
  statusResponseSchema,
  type ReadinessProblem,
  type StatusProblem,
} from '@raccolta/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context.js';
import { migrationsAtHead } from '../db/migrate.js';
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

    // Probes for a load balancer, Kubernetes or systemd: status codes, no words for people.
    app.get(
      '/health/live',
      {
        schema: {
          operationId: 'getLiveness',
          security: PUBLIC,
          tags: ['status'],
          summary: 'Liveness: the process answers (200)',
          response: { 200: liveResponseSchema },
        },
        config: { rateLimit: false },
      },
      () => ({ status: 'ok' as const }),
    );

    app.get(
      '/health/ready',
      {
        schema: {
          operationId: 'getReadiness',
          security: PUBLIC,
          tags: ['status'],
          summary: 'Readiness: 200 when this node should get requests, 503 otherwise',
          description:
            'Answers 503 at once when the process begins to stop (SIGTERM: it finishes the requests in flight within SHUTDOWN_GRACE_SECONDS, then exits), and while the database or the file storage cannot be reached or the database schema is older than this code.',
          response: { 200: readyResponseSchema, 503: readyResponseSchema },
        },
        config: { rateLimit: false },
      },
      async (_request, reply) => {
        const failed = new Set<ReadinessProblem>();
        if (ctx.lifecycle.draining) failed.add('draining');
        else {
          await Promise.all([
            ctx
              .checkDatabase()
              .then(() => migrationsAtHead(ctx.db))
              .then(
                (atHead) => {
                  if (!atHead) failed.add('migrations');
                },
                () => failed.add('database'),
              ),
            ctx.storage.health().catch(() => failed.add('storage')),
          ]);
        }
        const problems = READINESS_PROBLEMS.filter((problem) => failed.has(problem));
        return reply
          .status(problems.length ? 503 : 200)
          .send({ status: problems.length ? 'unavailable' : 'ready', problems });
      },
    );
    return Promise.resolve();
  };
}
