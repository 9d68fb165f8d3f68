import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from '../config/config.js';
import { tusDocumentation } from '../uploads/tus-docs.js';
import {
  answerResponse,
  documentWildcard,
  errorResponses,
  requestHeaderSchema,
  sharedErrorCodes,
} from './api-docs.js';
import { namedComponents, registerSchemaComponents } from './schema-components.js';

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

/** The binary body of a protocol route, as the JSON Schema @fastify/swagger turns into a request body. */
function protocolBody(contentType: string, description: string): Record<string, unknown> {
  return {
    content: { [contentType]: { schema: { type: 'string', format: 'binary', description } } },
  };
}

/** The operationIds whose body is optional (tus creation-with-upload): facts of the code. */
const OPTIONAL_BODIES = new Set<string>();

/**
 * Route schemas become the document here, and only here: each operation also gets its error
 * responses (the shared codes plus its `errors`), its `answers` without a schema, a multipart
 * body described, a `*` wildcard named, and what a protocol (tus) expects of it: headers, a binary
 * body, its own refusals. None of it changes how a request is validated or answered.
 *
 * The operations whose body may be left out are collected in OPTIONAL_BODIES: @fastify/swagger
 * marks every body required, `markOptionalBodies` corrects the document.
 */
const transform: typeof jsonSchemaTransform = (input) => {
  // A copy, so a route without a schema (the docs UI's own) reads as an empty one.
  const schema: FastifySchema = { ...input.schema };
  if (schema.hide) return jsonSchemaTransform(input);
  const rateLimit = (input.route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
  const protocol =
    typeof input.route.method === 'string' ? tusDocumentation(input.route.method, input.url) : null;
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
  const out = jsonSchemaTransform({ ...input, schema });
  const documented: Record<string, unknown> = { ...out.schema };
  const responses: Record<string, unknown> = {
    ...(documented.response as object | undefined),
    ...errorResponses(codes, protocol?.refusals),
  };
  documented.response = responses;
  // @fastify/swagger suffixes the operationId of a HEAD route; ours are named apart already.
  if (input.route.method === 'HEAD' && typeof documented.operationId === 'string')
    documented.operationId = documented.operationId.replace(/-head$/, '');
  delete documented.errors;
  delete documented.answers;
  for (const [status, answer] of Object.entries(schema.answers ?? {})) {
    const headers = protocol?.responseHeaders?.[Number(status)];
    responses[status] = answerResponse(answer, headers);
  }
  if (schema.consumes?.includes('multipart/form-data') && documented.body === undefined)
    documented.body = MULTIPART_FILE_BODY;
  if (protocol) {
    documented.headers = requestHeaderSchema(protocol.requestHeaders);
    if (protocol.body) {
      documented.body = protocolBody(protocol.body.contentType, protocol.body.description);
      if (!protocol.body.required && typeof documented.operationId === 'string')
        OPTIONAL_BODIES.add(documented.operationId);
    }
    if (protocol.note)
      documented.description = [documented.description, protocol.note].filter(Boolean).join(' ');
  }
  const wildcard = documentWildcard(out.url);
  if (wildcard) return { url: wildcard.url, schema: { ...documented, params: wildcard.params } };
  return { ...out, schema: documented };
};

type Operation = { operationId?: string; requestBody?: { required?: boolean } };

/** Marks the bodies of OPTIONAL_BODIES optional. */
function markOptionalBodies<Doc extends object>(doc: Doc): Doc {
  const paths = (doc as { paths?: Record<string, Record<string, Operation>> }).paths ?? {};
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op.operationId && OPTIONAL_BODIES.has(op.operationId) && op.requestBody)
        op.requestBody.required = false;
    }
  }
  return doc;
}

/** The docs UI's CSP as @fastify/swagger-ui writes it, fitted to this install. */
export function docsCsp(header: string, publicUrl: string): string {
  const styled = header.replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'");
  if (publicUrl.startsWith('https:')) return styled;
  return styled.replace(/\s*upgrade-insecure-requests;?/, '');
}

/** The OpenAPI document is generated from the route schemas; served at /api/openapi.json, UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  registerSchemaComponents();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Raccolta API',
        description:
          'Teams collect files from contributors. Errors are `{ statusCode, errorCode, message }`; each operation lists its error codes under the HTTP status each one answers with. Framework refusals keep their own status and may answer any operation: a URL with a broken percent-encoding is 400 invalidRequest, a path segment over 100 characters 404 notFound, a body over the size limit 413 invalidInput, an unsupported content type 415 invalidRequest; the tus operations answer 412 invalidRequest (with `Tus-Version`) to an unsupported `Tus-Resumable`. The bodies are named under `components.schemas` (`Collection`, `File`, `ErrorBody`…); an error of one code is `<Code>Error` (`NotFoundError`).',
        version: '0.1.0',
        // No licence is granted (package.json: UNLICENSED): all rights reserved. OpenAPI 3.1 wants
        // an SPDX expression, where a licence of one's own is a `LicenseRef-`.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.apiPublicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          guest: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'guest token',
            description:
              'The guestToken of POST /guest/links/{token}/open: one upload link, short-lived',
          },
        },
      },
    },
    transform,
    transformObject: (input) =>
      markOptionalBodies(namedComponents(jsonSchemaTransformObject(input))),
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The docs UI sets a few inline styles; allowing them here touches only this page's CSP.
    // Its `upgrade-insecure-requests` would send the page's own scripts to https:// on an
    // install served over plain HTTP (a LAN), leaving a blank page: kept only behind HTTPS.
    transformStaticCSP: (header) => docsCsp(header, config.publicUrl),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
