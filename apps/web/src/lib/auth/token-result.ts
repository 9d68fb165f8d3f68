import type { ResponseSchema } from '../api-client';

/**
 * The envelope of every answer that carries tokens (sign-in, new password, refresh, OAuth code).
 * The token set itself is checked by storeTokenSet, so a missing token resets the session with
 * the spec's tokensMissing message instead of failing here as a generic error. Checked by hand:
 * the refresh runs on every page, and Zod is not downloaded for it.
 */
export const tokenResultSchema: ResponseSchema<{ result: unknown }> = {
  safeParse(value) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'result' in value) {
      return { success: true, data: { result: value.result } };
    }
    return {
      success: false,
      error: { issues: [{ path: ['result'], message: 'an object with a result was expected' }] },
    };
  },
};
