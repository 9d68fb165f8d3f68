import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { jsonResponse } from '../../../test/providers';
import { createAuthedRequest } from './authed-request';

function requestWith(status: number, errorCode: string) {
  const manager = {
    getAccessToken: vi.fn(() => Promise.resolve({ accessToken: 'token', tokenType: 'Bearer' })),
    handleUnauthorized: vi.fn(),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(() =>
      Promise.resolve(jsonResponse(status, { statusCode: status, errorCode, message: 'x' })),
    ),
  );
  return { request: createAuthedRequest(manager), manager };
}

describe('authed requests', () => {
  it.each(['invalidAuthorization', 'authorizationRequired'])(
    'ends the session when the server refuses the token (%s)',
    async (errorCode) => {
      const { request, manager } = requestWith(401, errorCode);
      await expect(request('/users/@me', { schema: z.object({}) })).rejects.toMatchObject({
        errorCode,
      });
      expect(manager.handleUnauthorized).toHaveBeenCalledWith('token');
      vi.unstubAllGlobals();
    },
  );

  it('keeps the session on a wrong password typed to confirm a change (401 notAuthorized)', async () => {
    const { request, manager } = requestWith(401, 'notAuthorized');
    await expect(
      request('/users/@me/reauthenticate', {
        method: 'POST',
        body: { password: 'wrong' },
        schema: z.object({}),
      }),
    ).rejects.toMatchObject({ errorCode: 'notAuthorized' });
    expect(manager.handleUnauthorized).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
