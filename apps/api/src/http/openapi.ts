import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config/config.js';

/**
 * Multipart routes read their body as a stream, so they declare none to validate; the document
 * still describes it: one binary part named `file`.
 */
const MULTIPART_FILE_BODY = {
  type: 'object',
  properties: { file: { type: 'string', format: 'binary' } },
  required: ['file'],
} as const;

const transform: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const consumes = (input.schema as { consumes?: readonly string[] } | undefined)?.consumes;
  if (consumes?.includes('multipart/form-data') && out.schema.body === undefined)
    return { ...out, schema: { ...out.schema, body: MULTIPART_FILE_BODY } };
  return out;
};

/** The OpenAPI document is generated from the route schemas; served at /api/openapi.json, UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Raccolta API',
        description:
          'Teams collect files from contributors. Errors are `{ statusCode, errorCode, message }`.',
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
