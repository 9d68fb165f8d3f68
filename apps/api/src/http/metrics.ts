import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

/** The path Prometheus scrapes on the API's own port, with METRICS_TOKEN. */
export const METRICS_PATH = '/api/metrics';

/**
 * Prometheus metrics on the API's HTTP server, when METRICS_TOKEN or METRICS_PORT is set (nothing
 * otherwise, not even the timing): every answered request is timed by its route template
 * (`/api/teams/:teamId`, never the requested path, so the number of series stays bounded;
 * `unmatched` when no route matched).
 *
 * Registered before every route: a hook added later would not reach the routes before it.
 */
export function registerRequestTiming(app: FastifyInstance, ctx: AppContext): void {
  const { metrics } = ctx;
  if (!metrics.exposed) return;
  const duration = metrics.httpRequestDuration;
  // onResponse runs once the answer is written, hijacked ones (tus) included.
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/**
 * With METRICS_TOKEN, `GET /api/metrics` answers `Authorization: Bearer <METRICS_TOKEN>`. Any
 * other request gets what an unknown path gets (404 notFound, through the same handler and its
 * rate limit), so the route cannot be told from one that does not exist; without the setting
 * there is no route. Left out of the OpenAPI document, as /api/openapi.json is.
 */
export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext): void {
  const { metrics, config } = ctx;
  const token = config.metrics.token;
  if (token === null) return;
  const expected = digest(token);
  app.get(
    METRICS_PATH,
    {
      schema: { hide: true },
      // HEAD stays an unknown path, as without the route.
      exposeHeadRoute: false,
      // A refused request is counted once, by the not-found handler, as for any unknown path.
      config: { rateLimit: false },
    },
    async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const given = /^Bearer +(\S+) *$/i.exec(header)?.[1] ?? '';
      // Digests of equal length: the comparison takes the same time whatever was sent.
      if (!timingSafeEqual(digest(given), expected)) return reply.callNotFound();
      const text = await metrics.registry.metrics();
      return reply
        .header('Content-Type', metrics.registry.contentType)
        .header('Cache-Control', 'no-store')
        .send(text);
    },
  );
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
