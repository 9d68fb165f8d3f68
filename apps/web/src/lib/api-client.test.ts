import { statusResponseSchema } from '@raccolta/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, apiRequest, NO_RESPONSE_STATUS } from './api-client';

const fetchMock = vi.fn<typeof fetch>();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const okStatus = { status: 'ok', message: 'All good', timestamp: '2025-03-05T10:00:00.000Z' };

describe('apiRequest', () => {
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    fetchMock.mockReset();
  });

  it('sends JSON to the API base URL and returns the parsed body', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { ...okStatus, extra: true }));
    const data = await apiRequest('/status', { schema: statusResponseSchema });
    expect(data).toEqual(okStatus);

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/status');
    expect(init?.method).toBe('GET');
    expect(init?.headers).toEqual({ Accept: 'application/json' });
  });

  it('adds the body, its content type and the authorization header', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await apiRequest('/users/@me', {
      method: 'PUT',
      body: { nickname: 'Ada' },
      schema: z.undefined(),
      token: 'abc',
    });
    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(init?.body).toBe('{"nickname":"Ada"}');
    expect(init?.headers).toEqual({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      Authorization: 'Bearer abc',
    });
  });

  it('turns a network failure into noConnection', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await caught(apiRequest('/status', { schema: statusResponseSchema }));
    expect(error.errorCode).toBe('noConnection');
    expect(error.statusCode).toBe(NO_RESPONSE_STATUS);
  });

  it('turns an answer that breaks off midway into noConnection, logging nothing', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":'));
        controller.error(new TypeError('network error'));
      },
    });
    fetchMock.mockResolvedValue(new Response(broken, { status: 200 }));
    const error = await caught(apiRequest('/status', { schema: statusResponseSchema }));
    expect(error.errorCode).toBe('noConnection');
    expect(error.statusCode).toBe(NO_RESPONSE_STATUS);
    expect(console.error).not.toHaveBeenCalled();
  });

  it('lets an abort through as it is', async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('aborted', 'AbortError');
    fetchMock.mockRejectedValue(abort);
    await expect(
      apiRequest('/status', { schema: statusResponseSchema, signal: controller.signal }),
    ).rejects.toBe(abort);
  });

  it('turns a 400 without a usable body into invalidRequest', async () => {
    fetchMock.mockResolvedValue(new Response('Bad Request', { status: 400 }));
    const error = await caught(apiRequest('/status', { schema: statusResponseSchema }));
    expect(error).toMatchObject({ statusCode: 400, errorCode: 'invalidRequest' });
  });

  it('turns any other status without a body into generic and logs it', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 500 }));
    const error = await caught(apiRequest('/status', { schema: statusResponseSchema }));
    expect(error).toMatchObject({ statusCode: 500, errorCode: 'generic' });
    expect(console.error).toHaveBeenCalled();
  });

  it('ignores an error body whose errorCode is unknown', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(502, { statusCode: 502, errorCode: 'somethingNew', message: 'x' }),
    );
    const error = await caught(apiRequest('/status', { schema: statusResponseSchema }));
    expect(error.errorCode).toBe('generic');
  });

  it("uses the server's errorCode and data", async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(409, {
        statusCode: 409,
        errorCode: 'alreadySignedUp',
        message: 'User already signed up',
        data: { provider: 'email_password' },
      }),
    );
    const error = await caught(
      apiRequest('/auth/signup', { method: 'POST', body: {}, schema: z.unknown() }),
    );
    expect(error).toMatchObject({
      statusCode: 409,
      errorCode: 'alreadySignedUp',
      data: { provider: 'email_password' },
    });
    expect(console.error).not.toHaveBeenCalled();
  });

  it('turns a success body that fails the schema into generic', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { status: 'sleepy' }));
    const error = await caught(apiRequest('/status', { schema: statusResponseSchema }));
    expect(error).toMatchObject({ statusCode: 200, errorCode: 'generic' });
    expect(console.error).toHaveBeenCalled();
  });

  it('turns a success body that is not JSON into generic', async () => {
    fetchMock.mockResolvedValue(new Response('<html></html>', { status: 200 }));
    const error = await caught(apiRequest('/status', { schema: statusResponseSchema }));
    expect(error.errorCode).toBe('generic');
  });
});
