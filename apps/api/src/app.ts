import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { answerFrameworkError, notFoundBody, registerErrorHandler } from './http/error-handler.js';
import { registerInputGuard } from './http/input-guard.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerMetricsRoute, registerRequestTiming } from './http/metrics.js';
import { registerOpenApi } from './http/openapi.js';
import { createResponseSerializerCompiler } from './http/response-serializer.js';
import { databaseRateLimitStore } from './http/rate-limit-store.js';
import { registerRequestScope } from './http/request-scope.js';
import { registerSecurity } from './http/security.js';
import { registerWebApp } from './http/web-app.js';
import { authRoutes } from './auth/auth.routes.js';
import { oauthRoutes } from './auth/oauth/oauth.routes.js';
import { secondFactorRoutes } from './auth/second-factor/second-factor.routes.js';
import { invitationsRoutes } from './invitations/invitations.routes.js';
import { membersRoutes } from './members/members.routes.js';
import { statusRoutes } from './status/status.routes.js';
import { clientConfigRoutes } from './client-config/client-config.routes.js';
import { storageRoutes } from './storage/storage.routes.js';
import { subscriptionsRoutes } from './subscriptions/subscriptions.routes.js';
import { digestsRoutes } from './digests/digests.routes.js';
import { teamsRoutes } from './teams/teams.routes.js';
import { collectionsRoutes } from './collections/collections.routes.js';
import { downloadsRoutes } from './downloads/downloads.routes.js';
import { trashRoutes } from './trash/trash.routes.js';
import { filesRoutes } from './files/files.routes.js';
import { uploadsRoutes } from './uploads/uploads.routes.js';
import { linksRoutes } from './links/links.routes.js';
import { usersRoutes } from './users/users.routes.js';
import { sessionsRoutes } from './users/sessions.routes.js';

export type App = FastifyInstance;

/** A request id a proxy may hand over: short, and nothing a log line could be forged with. */
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Plugin layering: external plugins (security, OpenAPI) → error handling → API routes under
 * /api → the web app for everything else.
 */
export async function buildApp(ctx: AppContext): Promise<App> {
  const { config } = ctx;
  // Typed as the base logger so the instance keeps FastifyInstance's default generics.
  const logger: FastifyBaseLogger = ctx.logger;
  const app = Fastify({
    loggerInstance: logger,
    trustProxy: config.trustProxy,
    // Behind a trusted proxy, its X-Request-Id names the request in every log line, error body
    // and answer, so one request can be followed from nginx's log to the node's.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return config.trustProxy && typeof given === 'string' && REQUEST_ID.test(given)
        ? given
        : crypto.randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // A request a stopping node already accepted is served within the grace period, not refused
    // with 503 (a proxy does not repeat a POST it already sent).
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    createResponseSerializerCompiler({ checkWithZod: config.env !== 'production' }),
  );

  registerRequestScope(app);
  // A stopping node closes each connection once its answer is sent, rather than keeping it
  // alive for requests it will not take.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (ctx.lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  registerRequestTiming(app, ctx);
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  registerInputGuard(app);
  await registerSecurity(
    app,
    config,
    config.rateLimit.store === 'database' ? databaseRateLimitStore(ctx.db, ctx.clock) : undefined,
  );
  await registerOpenApi(app, config);
  registerMetricsRoute(app, ctx);

  await app.register(
    async (api) => {
      await api.register(statusRoutes(ctx));
      await api.register(clientConfigRoutes(ctx));
      await api.register(authRoutes(ctx));
      await api.register(oauthRoutes(ctx));
      await api.register(usersRoutes(ctx));
      await api.register(sessionsRoutes(ctx));
      await api.register(secondFactorRoutes(ctx));
      await api.register(membersRoutes(ctx));
      await api.register(invitationsRoutes(ctx));
      await api.register(teamsRoutes(ctx));
      await api.register(collectionsRoutes(ctx));
      await api.register(filesRoutes(ctx));
      await api.register(uploadsRoutes(ctx));
      await api.register(linksRoutes(ctx));
      await api.register(downloadsRoutes(ctx));
      await api.register(trashRoutes(ctx));
      await api.register(subscriptionsRoutes(ctx));
      await api.register(digestsRoutes(ctx));
      await api.register(
        storageRoutes({
          storage: ctx.storage,
          signingSecret: config.secret,
          clock: () => new Date(ctx.clock()),
          frameOrigins: config.webOrigins,
          offload: config.downloadOffload,
        }),
      );
    },
    { prefix: '/api' },
  );

  const webApp = await registerWebApp(app, config);
  // Unknown paths are rate limited too, so scanning for routes costs the scanner.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    return (
      webApp?.(request, reply) ??
      reply.status(404).send(notFoundBody(request.method, request.url, request.id))
    );
  });
  return app;
}
