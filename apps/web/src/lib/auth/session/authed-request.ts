import { apiRequest, isApiError, type ApiRequestOptions } from '../../api-client';
import type { SessionManager } from './session-manager';

export type AuthedRequestOptions<T> = Omit<ApiRequestOptions<T>, 'token' | 'tokenType'>;

/** An API call made as the signed-in user: `Authorization: {TokenType} {AccessToken}` (spec §7). */
export type AuthedRequest = <T>(path: string, options: AuthedRequestOptions<T>) => Promise<T>;

export function createAuthedRequest(
  manager: Pick<SessionManager, 'getAccessToken' | 'handleUnauthorized'>,
): AuthedRequest {
  return async (path, options) => {
    // Refreshes first when the token expires within 5 minutes; throws when signed out.
    const { accessToken, tokenType } = await manager.getAccessToken();
    try {
      return await apiRequest(path, { ...options, token: accessToken, tokenType });
    } catch (error) {
      // The server no longer accepts these tokens (revoked by a sign-out on another device):
      // keeping them would only make every later call fail the same way. Another 401 (a wrong
      // password typed to confirm a change, notAuthorized) says nothing about the tokens.
      if (isTokenRefusal(error)) manager.handleUnauthorized(accessToken);
      throw error;
    }
  };
}

/** A 401 about the access token itself, not about something typed with the call. */
export function isTokenRefusal(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.statusCode === 401 &&
    (error.errorCode === 'invalidAuthorization' || error.errorCode === 'authorizationRequired')
  );
}
