import type { RefreshRequest } from '@raccolta/contracts';
import { apiRequest } from '../api-client';
import { tokenResultSchema } from './token-result';

/**
 * POST /auth/refresh. The answer always carries a new refresh token (rotation): presenting an old
 * one again revokes the whole session, which is why the session manager serialises refreshes.
 */
export async function postRefreshTokens(body: RefreshRequest): Promise<unknown> {
  const { result } = await apiRequest('/auth/refresh', {
    method: 'POST',
    body,
    schema: tokenResultSchema,
  });
  return result;
}
