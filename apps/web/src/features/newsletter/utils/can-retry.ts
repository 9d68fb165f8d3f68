import { isApiError, isClientError } from '../../../lib/api-client';

/**
 * Asking again helps when no answer came, the server failed or asked to slow down; a request the
 * server refused (an invalid link, a known address) stays refused.
 */
export function canRetry(error: unknown): boolean {
  return !isClientError(error) || (isApiError(error) && error.errorCode === 'tooManyRequests');
}
