import { ERROR_STATUS, errorBodySchema, type ErrorCode } from '@raccolta/contracts';
import { z } from 'zod';

/** An answer documented without a response schema: a redirect, a stream, a tus answer. */
export interface DocumentedAnswer {
  description: string;
  /** Media type of a binary body; none when the answer has no body. */
  contentType?: string;
  /** Response headers worth naming, with what they carry. */
  headers?: Readonly<Record<string, string>>;
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The error codes this operation answers with beyond those every operation shares (see
     * `sharedErrorCodes`). Documentation only: the OpenAPI document lists them, nothing checks
     * answers against them.
     */
    errors?: readonly ErrorCode[];
    /** Documentation only: answers that have no response schema, by HTTP status. */
    answers?: Readonly<Record<number, DocumentedAnswer>>;
  }
}

/** Operations anyone may call: no bearer token. */
export const PUBLIC = [] as const;
/** Operations that need `Authorization: Bearer <access token>`. */
export const BEARER = [{ bearer: [] }] as const;
/** Operations that work without a token and act for the caller when one is sent. */
export const OPTIONAL_BEARER = [{}, { bearer: [] }] as const;

type Security = ReadonlyArray<Readonly<Record<string, readonly string[]>>>;

/** What the route tells the document about itself, after its Zod schemas became JSON Schema. */
export interface DocumentedRoute {
  url: string;
  security?: Security;
  hasBody: boolean;
  rateLimited: boolean;
}

/**
 * Error codes any operation of its kind can answer, whatever its handler does: invalidInput
 * (schema, NUL characters, a too deeply nested body), invalidRequest when it reads a body
 * (malformed JSON, an unsupported content type), tooManyRequests under the rate limit, the 401s of
 * the bearer check, and generic for an unexpected failure.
 */
export function sharedErrorCodes(route: DocumentedRoute): ErrorCode[] {
  const codes: ErrorCode[] = ['invalidInput', 'generic'];
  if (route.hasBody) codes.push('invalidRequest');
  if (route.rateLimited) codes.push('tooManyRequests');
  const schemes = route.security ?? [];
  if (schemes.some((scheme) => 'bearer' in scheme)) {
    codes.push('invalidAuthorization');
    // A token is optional when one of the alternatives needs none.
    if (!schemes.some((scheme) => Object.keys(scheme).length === 0))
      codes.push('authorizationRequired');
  }
  return codes;
}

/**
 * One response per HTTP status, its body the error body with `errorCode` narrowed to the codes
 * that answer with that status (ERROR_STATUS); the description names them too.
 */
export function errorResponses(codes: Iterable<ErrorCode>): Record<number, z.ZodType> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }
  const responses: Record<number, z.ZodType> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = [...(byStatus.get(status) ?? [])].sort();
    responses[status] = errorBodySchema
      .extend({ errorCode: z.enum(list as [ErrorCode, ...ErrorCode[]]) })
      .describe(`Refused: ${list.join(', ')}`);
  }
  return responses;
}

/** The JSON Schema form @fastify/swagger turns into an OpenAPI response without a schema of its own. */
export function answerResponse(answer: DocumentedAnswer): Record<string, unknown> {
  const headers = answer.headers
    ? Object.fromEntries(
        Object.entries(answer.headers).map(([name, description]) => [
          name,
          { type: 'string', description },
        ]),
      )
    : undefined;
  return {
    description: answer.description,
    ...(headers ? { headers } : {}),
    ...(answer.contentType
      ? { content: { [answer.contentType]: { schema: { type: 'string', format: 'binary' } } } }
      : { type: 'null' }),
  };
}

/** The name a route's `*` wildcard gets in the document: each one carries a signed token. */
export const WILDCARD_PARAM = 'token';

/**
 * Routes whose last segment is a `*` wildcard (a token longer than the router allows for a
 * `:param`) are documented as `{token}`, a path parameter OpenAPI tools understand.
 */
export function documentWildcard(
  url: string,
): { url: string; params: Record<string, unknown> } | null {
  if (!url.endsWith('/*')) return null;
  return {
    url: `${url.slice(0, -1)}{${WILDCARD_PARAM}}`,
    params: {
      type: 'object',
      properties: {
        [WILDCARD_PARAM]: { type: 'string', description: 'The signed token of the link' },
      },
      required: [WILDCARD_PARAM],
    },
  };
}
