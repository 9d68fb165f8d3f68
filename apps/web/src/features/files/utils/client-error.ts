import { isApiError } from '../../../lib/api-client';

/** A 4xx: asking again will not help, and for a page's subject it means "not found" (spec §2). */
export const isClientError = (error: unknown) =>
  isApiError(error) && error.statusCode >= 400 && error.statusCode < 500;
