import type { FastifyInstance } from 'fastify';
import { requestScope } from '../logger.js';

/**
 * Names every answer with its request id (X-Request-Id) and runs the request's work in its scope,
 * so the lines services write through `ctx.logger` carry it too (logger.ts); bodies and awaits
 * included (request-scope.test.ts, over a real connection).
 */
export function registerRequestScope(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    requestScope.run({ requestId: request.id }, done);
  });
}
