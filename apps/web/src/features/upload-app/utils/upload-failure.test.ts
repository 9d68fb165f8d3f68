import { DetailedError, type HttpRequest, type HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { errorText } from '../../../lib/error-text';
import { ApiError } from '../../../lib/api-client';
import { i18n } from '../../../i18n';
import { shouldRetryUpload, uploadFailureOf } from './upload-failure';

const request = {
  getMethod: () => 'PATCH',
  getURL: () => 'http://localhost/api/teams/t/collections/c/uploads/u',
  getHeader: () => undefined,
} as unknown as HttpRequest;

function answered(status: number, body = ''): DetailedError {
  const response = { getStatus: () => status, getBody: () => body } as HttpResponse;
  return new (
    DetailedError as unknown as new (
      message: string,
      cause: Error | null,
      req: HttpRequest,
      res: HttpResponse | null,
    ) => DetailedError
  )('tus: unexpected response', null, request, response);
}

function unanswered(cause: unknown): DetailedError {
  return new (
    DetailedError as unknown as new (
      message: string,
      cause: unknown,
      req: HttpRequest,
      res: null,
    ) => DetailedError
  )('tus: failed', cause, request, null);
}

const body = (statusCode: number, errorCode: string) =>
  JSON.stringify({ statusCode, errorCode, message: 'server words' });

describe('upload failures', () => {
  it('read the errorCode of our error body, never its message', () => {
    expect(uploadFailureOf(answered(413, body(413, 'quotaExceededStorage')))).toEqual({
      errorCode: 'quotaExceededStorage',
      statusCode: 413,
      retryable: false,
    });
    expect(uploadFailureOf(answered(410, body(410, 'uploadExpired')))).toMatchObject({
      errorCode: 'uploadExpired',
      retryable: true,
    });
    expect(uploadFailureOf(answered(460, body(460, 'checksumMismatch'))).errorCode).toBe(
      'checksumMismatch',
    );
  });

  it('tell a closed collection apart from a refusal, and never retry it', async () => {
    const closed = uploadFailureOf(answered(403, body(403, 'collectionClosed')));
    expect(closed).toEqual({ errorCode: 'collectionClosed', statusCode: 403, retryable: false });
    expect(errorText(i18n.t, closed.errorCode)).toBe(
      'This collection is closed: its deadline has passed.',
    );
    await i18n.changeLanguage('it');
    expect(errorText(i18n.t, closed.errorCode)).toBe(
      'Questa raccolta è chiusa: la scadenza è passata.',
    );
    await i18n.changeLanguage('en');
  });

  it('fall back on the status when a proxy answered without our body', () => {
    expect(uploadFailureOf(answered(413, '<html>Too large</html>')).errorCode).toBe('fileTooLarge');
    expect(uploadFailureOf(answered(415)).errorCode).toBe('fileTypeNotAllowed');
    expect(uploadFailureOf(answered(502))).toMatchObject({ errorCode: 'generic', retryable: true });
  });

  it('tell a lost connection and a lost session apart', () => {
    expect(uploadFailureOf(unanswered(new Error('xhr error')))).toEqual({
      errorCode: 'noConnection',
      statusCode: 0,
      retryable: true,
    });
    expect(uploadFailureOf(unanswered(new ApiError(401, 'authorizationRequired')))).toMatchObject({
      errorCode: 'authorizationRequired',
      retryable: false,
    });
  });

  it('are shown in the language of the page', async () => {
    const failure = uploadFailureOf(answered(415, body(415, 'fileTypeNotAllowed')));
    expect(errorText(i18n.t, failure.errorCode)).toBe(
      'Files of this type cannot be uploaded here.',
    );
    await i18n.changeLanguage('it');
    expect(errorText(i18n.t, failure.errorCode)).toBe(
      'Non è possibile caricare file di questo tipo.',
    );
    await i18n.changeLanguage('en');
  });

  it('are retried by tus for network, server, conflict and lock answers, and never offline', () => {
    expect(shouldRetryUpload(unanswered(new Error('x')), true)).toBe(true);
    expect(shouldRetryUpload(unanswered(new Error('x')), false)).toBe(false);
    expect(shouldRetryUpload(answered(500), true)).toBe(true);
    expect(shouldRetryUpload(answered(409, body(409, 'uploadOffsetMismatch')), true)).toBe(true);
    expect(shouldRetryUpload(answered(423), true)).toBe(true);
    expect(shouldRetryUpload(answered(404, body(404, 'notFound')), true)).toBe(false);
    expect(shouldRetryUpload(answered(413, body(413, 'fileTooLarge')), true)).toBe(false);
    expect(shouldRetryUpload(unanswered(new ApiError(401, 'invalidAuthorization')), true)).toBe(
      false,
    );
  });
});
