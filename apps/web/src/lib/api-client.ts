import { isErrorCode, type ErrorCode } from '@raccolta/contracts';
import { apiBaseUrl } from '../config';
import { reportReachability } from './reachability';

/** Status used when no HTTP response arrived at all (the network failed). */
export const NO_RESPONSE_STATUS = 0;

/** A failed API call: what the web app shows is the translated `errorCode`, never a server text. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly statusCode: number;
  readonly errorCode: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(
    statusCode: number,
    errorCode: ErrorCode,
    data?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(`API error ${errorCode} (${statusCode})`, options);
    this.statusCode = statusCode;
    this.errorCode = errorCode;
    this.data = data;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** A 4xx: asking again will not help, and for a page's subject it means "not found" (spec §2). */
export const isClientError = (error: unknown) =>
  isApiError(error) && error.statusCode >= 400 && error.statusCode < 500;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions<T> {
  method?: HttpMethod;
  /** Serialised as JSON. */
  body?: unknown;
  /**
   * Validates a successful response; use `z.undefined()` for calls that answer without a body.
   * Any object with Zod's `safeParse` will do, or a function that imports one: the calls a
   * visitor's first page makes use small hand-written checks or load their schema (and Zod) only
   * when they are made, so that page does not download Zod.
   */
  schema: ResponseSchema<T> | (() => Promise<ResponseSchema<T>>);
  signal?: AbortSignal;
  /** Access token for `Authorization: {tokenType} {token}`. */
  token?: string;
  tokenType?: string;
}

/** What the client needs of a response schema: Zod's `safeParse`, or the same by hand. */
export interface ResponseSchema<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly unknown[] } };
}

/** Accepts any answer (its body is not used), without downloading Zod for `z.unknown()`. */
export const anyBody: ResponseSchema<unknown> = {
  safeParse: (value) => ({ success: true, data: value }),
};

const NO_BODY = Symbol('no body');

/** Throws when the body cannot be read (the connection broke off); NO_BODY when it is not JSON. */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return NO_BODY;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NO_BODY;
  }
}

function requestLabel(method: HttpMethod, path: string): string {
  return `${method} ${path}`;
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions<T>): Promise<T> {
  const { method = 'GET', body, schema, signal, token, tokenType = 'Bearer' } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  // Only with a body: Fastify rejects an empty body sent as application/json.
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token !== undefined) headers.Authorization = `${tokenType} ${token}`;

  // Loaded while the request is under way.
  const shape = typeof schema === 'function' ? schema() : Promise.resolve(schema);
  // Should the request fail first, a failed load is not reported a second time.
  shape.catch(() => undefined);

  let response: Response;
  try {
    response = await fetch(`${apiBaseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    // A cancelled request is not a connection problem; callers such as react-query expect the abort.
    if (signal?.aborted) throw error;
    reportReachability(false);
    throw new ApiError(NO_RESPONSE_STATUS, 'noConnection', undefined, { cause: error });
  }
  reportReachability(true);

  let payload: unknown;
  try {
    payload = await readJson(response);
  } catch (error) {
    // The answer broke off midway (the network dropped, or the page is being left): a
    // connection problem, not a server that answered something unexpected.
    if (signal?.aborted) throw error;
    throw new ApiError(NO_RESPONSE_STATUS, 'noConnection', undefined, { cause: error });
  }

  if (!response.ok) {
    const body = errorBodyOf(payload);
    if (body !== null) throw new ApiError(response.status, body.errorCode, body.data);
    if (response.status === 400) throw new ApiError(response.status, 'invalidRequest');
    console.error(
      `API ${requestLabel(method, path)} failed with ${response.status} and no error body`,
    );
    throw new ApiError(response.status, 'generic');
  }

  let validator: ResponseSchema<T>;
  try {
    validator = await shape;
  } catch (error) {
    // The schema's chunk did not arrive: as unreachable as a request that got no answer.
    throw new ApiError(NO_RESPONSE_STATUS, 'noConnection', undefined, { cause: error });
  }
  const parsed = validator.safeParse(payload === NO_BODY ? undefined : payload);
  if (!parsed.success) {
    console.error(
      `API ${requestLabel(method, path)} answered an unexpected body`,
      parsed.error.issues,
    );
    throw new ApiError(response.status, 'generic', undefined, { cause: parsed.error });
  }
  return parsed.data;
}

/**
 * The errorCode and data of an error body (`{ statusCode, errorCode, message, data? }`), read
 * without a schema so that the first page of the app does not need to download Zod.
 */
function errorBodyOf(
  payload: unknown,
): { errorCode: ErrorCode; data: Record<string, unknown> | undefined } | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const { errorCode, data } = payload as { errorCode?: unknown; data?: unknown };
  if (!isErrorCode(errorCode)) return null;
  const isRecord = typeof data === 'object' && data !== null && !Array.isArray(data);
  return { errorCode, data: isRecord ? (data as Record<string, unknown>) : undefined };
}
