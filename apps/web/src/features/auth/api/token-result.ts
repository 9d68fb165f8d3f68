import { z } from 'zod';

/**
 * The envelope of every answer that carries tokens (sign-in, new password, refresh, OAuth code).
 * The token set itself is checked by storeTokenSet, so a missing token resets the session with
 * the spec's tokensMissing message instead of failing here as a generic error.
 */
export const tokenResultSchema = z.object({ result: z.unknown() });
