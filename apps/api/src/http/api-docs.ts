import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '@raccolta/contracts';

/** An answer documented without a response schema: a redirect, a stream, a tus answer. */
export interface DocumentedAnswer {
  description: string;
  /** Media type of a binary body; none when the answer has no body. */
  contentType?: string;
  /** Response headers worth naming, with what they carry. */
  headers?: Readonly<Record<string, string>>;
}

/** A request or response header, as the document describes it. */
export interface DocumentedHeader {
  description: string;
  /** Only for request headers: the request is refused without it. */
  required?: boolean;
  /** Its JSON Schema; a string when none. */
  schema?: Readonly<Record<string, unknown>>;
}

/**
 * A refusal whose HTTP status is the protocol's rather than its errorCode's (ERROR_STATUS): tus
 * answers 412 to an unsupported `Tus-Resumable` and 415 to a PATCH of another content type, as
 * Fastify answers 415 to an unsupported content type, each with the code the error handler gives
 * that status (invalidRequest).
 */
export interface ProtocolRefusal {
  status: number;
  code: ErrorCode;
  /** When it happens, for the response's description. */
  when: string;
  headers?: Readonly<Record<string, DocumentedHeader>>;
}

/**
 * What a protocol the route hands its request to (tus) expects of a request and answers, for
 * the document only: header parameters, a body that is not JSON, response headers, refusals.
 */
export interface DocumentedProtocol {
  requestHeaders: Readonly<Record<string, DocumentedHeader>>;
  body?: { contentType: string; description: string; required: boolean };
  /** Added to the headers of the answers the route documents, by status. */
  responseHeaders?: Readonly<Record<number, Readonly<Record<string, DocumentedHeader>>>>;
  refusals?: readonly ProtocolRefusal[];
  /** Appended to the operation's description. */
  note?: string;
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
/** Guest operations (upload links): `Authorization: Bearer <guest token>` from opening a link. */
export const GUEST = [{ guest: [] }] as const;
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
 * the bearer check, secondFactorEnrolmentRequired on the routes of a team (owners and admins of a
 * team that requires a second factor, until they have one), and generic for an unexpected failure.
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
    // A team that requires a second factor refuses its owners and admins without one on every
    // team-scoped call (access/access.ts).
    if (/(?:^|\/)teams\/[:{]teamId\b/.test(route.url)) codes.push('secondFactorEnrolmentRequired');
  }
  if (schemes.some((scheme) => 'guest' in scheme)) {
    codes.push('invalidAuthorization', 'authorizationRequired');
  }
  return codes;
}

/** Where the document describes the error body once; every error response refers to it. */
export const ERROR_BODY_REF = '#/components/schemas/ErrorBody';

/**
 * One response per HTTP status, its body the error body (the `ErrorBody` component) with
 * `errorCode` narrowed to the codes that answer with that status (ERROR_STATUS, or the status of a
 * protocol refusal); the description names them too. A generated client reads it as
 * `ErrorBody & { errorCode: 'a' | 'b' }`, or as `<Code>Error` for a single code.
 */
export function errorResponses(
  codes: Iterable<ErrorCode>,
  refusals: readonly ProtocolRefusal[] = [],
): Record<number, DocumentedResponse> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  const add = (status: number, code: ErrorCode) =>
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  for (const code of codes) add(ERROR_STATUS[code], code);
  for (const refusal of refusals) add(refusal.status, refusal.code);
  const responses: Record<number, DocumentedResponse> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = [...(byStatus.get(status) ?? [])].sort();
    const [only, ...others] = list;
    const protocol = refusals.filter((refusal) => refusal.status === status);
    const headers = Object.assign(
      {},
      ...protocol.map((refusal) => refusal.headers ?? {}),
    ) as Record<string, DocumentedHeader>;
    responses[status] = {
      description: `Refused: ${[
        ...list.filter((code) => ERROR_STATUS[code] === status),
        ...protocol.map((refusal) => `${refusal.code} when ${refusal.when}`),
      ].join(', ')}`,
      ...(Object.keys(headers).length ? { headers: headerSchemas(headers) } : {}),
      content: {
        'application/json': {
          schema: only && !others.length ? { $ref: errorRef(only) } : narrowedErrorBody(list),
        },
      },
    };
  }
  return responses;
}

/** Headers in the form @fastify/swagger turns into an OpenAPI response's `headers`. */
export function headerSchemas(
  headers: Readonly<Record<string, DocumentedHeader>>,
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, header]) => [
      name,
      { type: 'string', ...header.schema, description: header.description },
    ]),
  );
}

/** Request headers as the JSON Schema @fastify/swagger turns into header parameters. */
export function requestHeaderSchema(
  headers: Readonly<Record<string, DocumentedHeader>>,
): Record<string, unknown> {
  const required = Object.entries(headers).filter(([, header]) => header.required);
  return {
    type: 'object',
    properties: headerSchemas(headers),
    ...(required.length ? { required: required.map(([name]) => name) } : {}),
  };
}

/**
 * The error body of a single code is a component of its own, `<Code>Error` (`NotFoundError`,
 * `GenericError`…): most operations share them. `errorComponents` describes them.
 */
export function errorComponentName(code: ErrorCode): string {
  return `${code[0]?.toUpperCase() ?? ''}${code.slice(1)}Error`;
}

const errorRef = (code: ErrorCode) => `#/components/schemas/${errorComponentName(code)}`;

/** One component per error code: the error body with that `errorCode`. */
export function errorComponents(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    ERROR_CODES.map((code) => [errorComponentName(code), narrowedErrorBody([code])]),
  );
}

/** The error body whose `errorCode` is one of `codes`. */
export function narrowedErrorBody(codes: readonly ErrorCode[]): Record<string, unknown> {
  return {
    allOf: [
      { $ref: ERROR_BODY_REF },
      {
        type: 'object',
        properties: { errorCode: { type: 'string', enum: codes } },
        required: ['errorCode'],
      },
    ],
  };
}

/** A response as @fastify/swagger takes it: a description, headers, a body by media type. */
export interface DocumentedResponse {
  description: string;
  /** `null`: no body. */
  type?: 'null';
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Record<string, unknown> }>;
}

/** The JSON Schema form @fastify/swagger turns into an OpenAPI response without a schema of its own. */
export function answerResponse(
  answer: DocumentedAnswer,
  moreHeaders: Readonly<Record<string, DocumentedHeader>> = {},
): DocumentedResponse {
  const described = Object.fromEntries(
    Object.entries(answer.headers ?? {}).map(([name, description]) => [name, { description }]),
  );
  const headers = { ...described, ...moreHeaders };
  return {
    description: answer.description,
    ...(Object.keys(headers).length ? { headers: headerSchemas(headers) } : {}),
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
