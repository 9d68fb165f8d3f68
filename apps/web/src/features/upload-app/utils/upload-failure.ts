import { errorBodySchema, type ErrorCode } from '@raccolta/contracts';
import { DetailedError } from 'tus-js-client';
import { isApiError, NO_RESPONSE_STATUS } from '../../../lib/api-client';

/** Why an upload stopped, as the upload list shows it: a translated errorCode, never server text. */
export interface UploadFailure {
  errorCode: ErrorCode;
  /** 0 when no answer arrived (the connection failed). */
  statusCode: number;
  /** Whether trying again can succeed; a file too large or of a refused type stays refused. */
  retryable: boolean;
}

/** What no retry changes: the file, the team's room or the caller's rights would have to. */
const FINAL: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'fileTooLarge',
  'quotaExceededStorage',
  'fileTypeNotAllowed',
  // The deadline passed (issue #36): no retry reopens the collection.
  'collectionClosed',
  // Through a guest link: closed, full, or missing what it asks for.
  'uploadLinkNotFound',
  'uploadLinkFull',
  'emailRequired',
  'invalidEmail',
  'forbidden',
  'notFound',
  'authorizationRequired',
  'invalidAuthorization',
  'invalidInput',
  'invalidRequest',
]);

/** An answer without our error body (a proxy in front of the API, say), by its status. */
function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case NO_RESPONSE_STATUS:
      return 'noConnection';
    case 400:
      return 'invalidRequest';
    case 401:
      return 'invalidAuthorization';
    case 403:
      return 'forbidden';
    case 404:
      return 'notFound';
    case 409:
      return 'uploadOffsetMismatch';
    case 410:
      return 'uploadExpired';
    case 413:
      return 'fileTooLarge';
    case 415:
      return 'fileTypeNotAllowed';
    case 429:
      return 'tooManyRequests';
    case 460:
      return 'checksumMismatch';
    default:
      return 'generic';
  }
}

function parseBody(body: string): ErrorCode | null {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data.errorCode : null;
  } catch {
    return null;
  }
}

function failure(errorCode: ErrorCode, statusCode: number): UploadFailure {
  return { errorCode, statusCode, retryable: !FINAL.has(errorCode) };
}

/**
 * Reads whatever tus-js-client reported: a DetailedError carries the server's answer (our JSON
 * error body) or, without an answer, the network failure or what our own code threw on the way
 * (the session could not give a token); anything else is a failure in the browser.
 */
export function uploadFailureOf(error: unknown): UploadFailure {
  if (isApiError(error)) return failure(error.errorCode, error.statusCode);
  if (error instanceof DetailedError) {
    const response = error.originalResponse;
    if (response !== null) {
      const status = response.getStatus();
      return failure(parseBody(response.getBody()) ?? codeOfStatus(status), status);
    }
    if (isApiError(error.causingError)) {
      return failure(error.causingError.errorCode, error.causingError.statusCode);
    }
    // The typings promise a request; tus-js-client leaves it null for errors before one was made.
    const request = error.originalRequest as DetailedError['originalRequest'] | null;
    if (request !== null) return failure('noConnection', NO_RESPONSE_STATUS);
  }
  return failure('generic', NO_RESPONSE_STATUS);
}

/** Whether tus-js-client should try again by itself, after the delays of retryDelays. */
export function shouldRetryUpload(error: unknown, online: boolean): boolean {
  // Offline, the queue pauses the upload and resumes it when the connection is back.
  if (!online) return false;
  const { statusCode, errorCode } = uploadFailureOf(error);
  if (errorCode === 'authorizationRequired' || errorCode === 'invalidAuthorization') return false;
  if (statusCode >= 400 && statusCode < 500) {
    // Out of step with the server (409) or locked by the previous request (423): the retry asks
    // the server for its offset first; a rate limit passes with the delay.
    return statusCode === 409 || statusCode === 423 || statusCode === 429;
  }
  return true;
}
