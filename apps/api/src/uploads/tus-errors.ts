import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@raccolta/contracts';
import { AppError } from '../errors/app-error.js';

/** The shape @tus/server sends as an error answer. */
export interface TusErrorAnswer {
  status_code: number;
  body: string;
}

/** An error answer in the API's own shape, so tus clients get the same errorCode as everyone. */
export function tusError(errorCode: ErrorCode, message: string): TusErrorAnswer {
  const statusCode = ERROR_STATUS[errorCode];
  const body: ErrorBody = { statusCode, errorCode, message };
  return { status_code: statusCode, body: JSON.stringify(body) };
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
    if (error.body.startsWith('{')) return error;
    const code = BY_STATUS[error.status_code];
    if (code) return tusError(code, error.body.trim());
  }
  onUnexpected(error);
  return tusError('generic', 'The upload could not be processed');
}

function isTusAnswer(error: unknown): error is TusErrorAnswer {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as TusErrorAnswer).status_code === 'number' &&
    typeof (error as TusErrorAnswer).body === 'string'
  );
}
