import { errorBodySchema, fileSchema, type FileItem } from '@raccolta/contracts';
import { apiBaseUrl } from '../../../config';
import { ApiError, NO_RESPONSE_STATUS } from '../../../lib/api-client';
import type { Session } from '../../../lib/auth/session/session-context';
import { filesPath } from '../../../lib/files/file-keys';

/** What the session hands out for an authenticated call. */
export type AccessToken = Awaited<ReturnType<Session['getAccessToken']>>;

export interface UploadFileInput {
  teamId: string;
  collectionId: string;
  file: File;
  token: AccessToken;
  /** The share of the bytes sent so far, from 0 to 1. */
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}

function parseJson(text: string): unknown {
  try {
    return text.trim() === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** The same reading of an answer as apiRequest: a translated errorCode, never the server text. */
function readAnswer(status: number, text: string): FileItem {
  const payload = parseJson(text);
  if (status < 200 || status >= 300) {
    const error = errorBodySchema.safeParse(payload);
    if (error.success) throw new ApiError(status, error.data.errorCode, error.data.data);
    // A proxy in front of the API may refuse a large body with a bare 413.
    if (status === 413) throw new ApiError(status, 'fileTooLarge');
    throw new ApiError(status, status === 400 ? 'invalidRequest' : 'generic');
  }
  const file = fileSchema.safeParse(payload);
  if (!file.success) {
    console.error('API POST files answered an unexpected body', file.error.issues);
    throw new ApiError(status, 'generic', undefined, { cause: file.error });
  }
  return file.data;
}

/**
 * POST …/files as multipart/form-data with one part `file` (201: the new file). XMLHttpRequest
 * rather than fetch, because only it reports upload progress. Errors: 413 fileTooLarge,
 * 415 fileTypeNotAllowed, 403 forbidden, 404 notFound; no answer at all is noConnection.
 */
export function uploadFile({
  teamId,
  collectionId,
  file,
  token,
  onProgress,
  signal,
}: UploadFileInput): Promise<FileItem> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', `${apiBaseUrl}${filesPath(teamId, collectionId)}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Authorization', `${token.tokenType} ${token.accessToken}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      settle();
      try {
        resolve(readAnswer(xhr.status, xhr.responseText));
      } catch (error) {
        reject(error instanceof Error ? error : new ApiError(xhr.status, 'generic'));
      }
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError(NO_RESPONSE_STATUS, 'noConnection'));
    };
    xhr.onabort = () => {
      settle();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };

    const body = new FormData();
    body.append('file', file, file.name);
    xhr.send(body);
  });
}
