import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config/config.js';
import { answerResponse, documentWildcard, errorResponses, sharedErrorCodes } from './api-docs.js';

/**
 * Multipart routes read their body as a stream, so they declare none to validate; the document
 * still describes it: one binary part named `file`.
 */
const MULTIPART_FILE_BODY = {
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
} as const;

function sortsBy(querystring: unknown): boolean {
  const shape = (querystring as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape?.sort !== undefined;
}

/**
 * Route schemas become the document here, and only here: each operation also gets its error
 * responses (the shared codes plus its `errors`), its `answers` without a schema, a multipart
 * body described, and a `*` wildcard named. None of it changes how a request is validated or
 * answered.
 */
const transform: typeof jsonSchemaTransform = (input) => {
  // A copy, so a route without a schema (the docs UI's own) reads as an empty one.
  const schema: FastifySchema = { ...input.schema };
  if (schema.hide) return jsonSchemaTransform(input);
  const rateLimit = (input.route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
  const codes = new Set([
    ...sharedErrorCodes({
      url: input.url,
      security: schema.security,
      hasBody: schema.body !== undefined || schema.consumes !== undefined,
      rateLimited: rateLimit !== false,
    }),
    ...(schema.errors ?? []),
    // The lists sorted by `sort` refuse any other order with their own code.
    ...(sortsBy(schema.querystring) ? (['invalidSorting'] as const) : []),
  ]);
  const out = jsonSchemaTransform({
    ...input,
    schema: {
      ...schema,
      response: { ...(schema.response as object | undefined), ...errorResponses(codes) },
    },
  });
  const documented: Record<string, unknown> = { ...out.schema };
  // @fastify/swagger suffixes the operationId of a HEAD route; ours are named apart already.
  if (input.route.method === 'HEAD' && typeof documented.operationId === 'string')
    documented.operationId = documented.operationId.replace(/-head$/, '');
  delete documented.errors;
  delete documented.answers;
  for (const [status, answer] of Object.entries(schema.answers ?? {}))
    (documented.response as Record<string, unknown>)[status] = answerResponse(answer);
  if (schema.consumes?.includes('multipart/form-data') && documented.body === undefined)
    documented.body = MULTIPART_FILE_BODY;
  const wildcard = documentWildcard(out.url);
  if (wildcard) return { url: wildcard.url, schema: { ...documented, params: wildcard.params } };
  return { ...out, schema: documented };
};

/** The OpenAPI document is generated from the route schemas; served at /api/openapi.json, UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Raccolta API',
        description:
          'Teams collect files from contributors. Errors are `{ statusCode, errorCode, message }`; each operation lists its error codes under the HTTP status each one answers with. Framework refusals keep their own status: a body over the size limit is 413 invalidInput, an unsupported content type 415 invalidRequest.',
        version: '0.1.0',
      },
      servers: [{ url: config.apiPublicUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The docs UI sets a few inline styles; allowing them here touches only this page's CSP.
    transformStaticCSP: (header) =>
      header.replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'"),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
