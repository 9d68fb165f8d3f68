import { ERROR_STATUS, errorBodySchema, type ErrorBody, type ErrorCode } from '@raccolta/contracts';
import { AppError } from '../errors/app-error.js';

/** The shape @tus/server sends as an error answer. */
export interface TusErrorAnswer {
  status_code: number;
  body: string;
}

/**
 * Statuses tus prescribes that no errorCode has as its own: 412 (an unsupported Tus-Resumable)
 * and 415 (a PATCH that is not `application/offset+octet-stream`). They answer that status with
 * `invalidRequest`, as the API answers Fastify's own 415 for a body it cannot read.
 */
export type TusProtocolStatus = 412 | 415;
const PROTOCOL_STATUSES: ReadonlySet<number> = new Set<TusProtocolStatus>([412, 415]);

/** Our error body; the status is the errorCode's own unless tus prescribes another. */
export function errorBody(
  errorCode: ErrorCode,
  message: string,
  statusCode: number = ERROR_STATUS[errorCode],
): ErrorBody {
  return { statusCode, errorCode, message };
}

/** The answer to a request that breaks the tus protocol itself (see TusProtocolStatus). */
export function protocolErrorBody(statusCode: TusProtocolStatus, message: string): ErrorBody {
  return errorBody('invalidRequest', message, statusCode);
}

/** An error answer in the API's own shape, so tus clients get the same errorCode as everyone. */
export function tusError(
  errorCode: ErrorCode,
  message: string,
  statusCode?: number,
): TusErrorAnswer {
  const body = errorBody(errorCode, message, statusCode);
  return { status_code: body.statusCode, body: JSON.stringify(body) };
}

/** @tus/server's own errors by status: what each means for a client of this API. */
const BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalidInput',
  // Missing Upload-Offset or content type: the request is malformed, whatever tus calls it.
  403: 'invalidInput',
  404: 'notFound',
  409: 'uploadOffsetMismatch',
  410: 'uploadExpired',
  413: 'fileTooLarge',
  460: 'checksumMismatch',
  // An extension we do not offer (concatenation, deferred length): the client asked for
  // something the discovery answer does not list.
  501: 'invalidRequest',
};

/**
 * Maps whatever a tus handler threw (our AppError, an answer built by `tusError`, one of
 * @tus/server's plain-text ERRORS, or anything else) to an answer with our error body. Unknown
 * failures become 500 generic and are reported to `onUnexpected`.
 */
export function toTusErrorAnswer(
  error: unknown,
  onUnexpected: (error: unknown) => void,
): TusErrorAnswer {
  if (error instanceof AppError) return tusError(error.errorCode, error.message);
  if (isTusAnswer(error)) {
    if (parseErrorBody(error.body)) return error;
    const message = error.body.trim();
    if (PROTOCOL_STATUSES.has(error.status_code)) {
      return tusError('invalidRequest', message, error.status_code);
    }
    const code = BY_STATUS[error.status_code];
    if (code) return tusError(code, message || code);
  }
  onUnexpected(error);
  return tusError('generic', 'The upload could not be processed');
}

/**
 * Every error answer of @tus/server as `application/json` with our body. Errors its handlers
 * throw were mapped by `toTusErrorAnswer` already but come with tus's `text/plain`; those it
 * writes itself (a header it finds invalid, say) are plain text, mapped here the same way.
 */
export async function withJsonError(
  response: Response,
  onUnexpected: (error: unknown) => void,
): Promise<Response> {
  if (response.status < 400) return response;
  const text = await response.text();
  const answer = parseErrorBody(text)
    ? { status_code: response.status, body: text }
    : toTusErrorAnswer({ status_code: response.status, body: text }, onUnexpected);
  const headers = new Headers(response.headers);
  headers.set('Content-Type', 'application/json; charset=utf-8');
  headers.set('Content-Length', String(Buffer.byteLength(answer.body)));
  return new Response(answer.body, { status: answer.status_code, headers });
}

function parseErrorBody(text: string): ErrorBody | null {
  if (!text.startsWith('{')) return null;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function isTusAnswer(error: unknown): error is TusErrorAnswer {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as TusErrorAnswer).status_code === 'number' &&
    typeof (error as TusErrorAnswer).body === 'string'
  );
}
