import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';

/** What a request looked like when it reached the fake server. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Bytes in the body (PATCH). */
  bodySize: number;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** Decides a request's fate before the fake server does: an answer, a network failure or a hold. */
export type Interceptor = (request: SeenRequest) => FakeAnswer | 'network-error' | 'hold' | null;

interface StoredUpload {
  length: number;
  offset: number;
  metadata: string;
}

/**
 * A tus 1.0 server in memory behind tus-js-client's HttpStack interface, for unit tests of the
 * upload queue: creation, HEAD, PATCH, DELETE, with an interceptor to fail or hold requests.
 */
export class FakeTusServer implements HttpStack {
  readonly uploads = new Map<string, StoredUpload>();
  readonly requests: SeenRequest[] = [];
  interceptor: Interceptor | null = null;
  private nextId = 1;
  /** Requests held by the interceptor, released by the test. */
  readonly held: { request: SeenRequest; release: () => void; fail: () => void }[] = [];

  constructor(private readonly origin = 'http://localhost') {}

  getName(): string {
    return 'FakeTusServer';
  }

  createRequest(method: string, url: string): HttpRequest {
    const headers: Record<string, string> = {};
    let onProgress: ((bytes: number) => void) | null = null;
    let aborted = false;
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (name, value) => {
        headers[name] = value;
      },
      getHeader: (name) => headers[name],
      setProgressHandler: (handler) => {
        onProgress = handler;
      },
      getUnderlyingObject: () => null,
      abort: () => {
        aborted = true;
        return Promise.resolve();
      },
      send: (body: unknown) => {
        const bodySize = body instanceof Blob ? body.size : 0;
        const seen: SeenRequest = { method, url, headers: { ...headers }, bodySize };
        this.requests.push(seen);
        return new Promise<HttpResponse>((resolve, reject) => {
          const answer = () => {
            if (aborted) return;
            onProgress?.(bodySize);
            resolve(this.handle(seen));
          };
          const fail = () => reject(new Error('network error'));
          const decision = this.interceptor?.(seen) ?? null;
          if (decision === 'network-error') {
            queueMicrotask(fail);
          } else if (decision === 'hold') {
            this.held.push({ request: seen, release: answer, fail });
          } else if (decision !== null) {
            queueMicrotask(() => resolve(response(decision)));
          } else {
            queueMicrotask(answer);
          }
        });
      },
    };
  }

  private handle(request: SeenRequest): HttpResponse {
    const { method, url, headers } = request;
    if (method === 'POST') {
      const id = `0195f0c2-7c1a-7000-8000-0000000${String(this.nextId++).padStart(5, '0')}`;
      this.uploads.set(id, {
        length: Number(headers['Upload-Length']),
        offset: 0,
        metadata: headers['Upload-Metadata'] ?? '',
      });
      const path = new URL(url).pathname;
      return response({ status: 201, headers: { Location: `${path}/${id}` } });
    }
    const id = new URL(url, this.origin).pathname.split('/').at(-1) ?? '';
    const upload = this.uploads.get(id);
    if (upload === undefined) {
      return response({
        status: 404,
        body: JSON.stringify({ statusCode: 404, errorCode: 'notFound', message: 'gone' }),
      });
    }
    if (method === 'DELETE') {
      this.uploads.delete(id);
      return response({ status: 204 });
    }
    if (method === 'PATCH') {
      if (Number(headers['Upload-Offset']) !== upload.offset) {
        return response({
          status: 409,
          body: JSON.stringify({
            statusCode: 409,
            errorCode: 'uploadOffsetMismatch',
            message: 'offset',
          }),
        });
      }
      upload.offset += request.bodySize;
    }
    return response({
      status: method === 'PATCH' ? 204 : 200,
      headers: { 'Upload-Offset': String(upload.offset), 'Upload-Length': String(upload.length) },
    });
  }
}

function response({ status, headers = {}, body = '' }: FakeAnswer): HttpResponse {
  return {
    getStatus: () => status,
    getHeader: (name) => headers[name],
    getBody: () => body,
    getUnderlyingObject: () => null,
  };
}
