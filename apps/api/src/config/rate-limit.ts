import { z } from 'zod';
import type { Base } from './env.js';

/** The request limit per client address, for routes without a stricter one of their own. */
export const rateLimitEnv = z.object({
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(300),
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Where request counts per address live; default: the database on PostgreSQL, else memory. */
  RATE_LIMIT_STORE: z.enum(['memory', 'database']).optional(),
});

export function rateLimitConfig(
  e: z.output<typeof rateLimitEnv>,
  base: Pick<Base, 'databaseKind'>,
) {
  return {
    rateLimit: {
      max: e.RATE_LIMIT_MAX,
      windowMs: e.RATE_LIMIT_WINDOW_MS,
      /**
       * `memory`: each process counts its own requests (one node). `database`: every process
       * counts in the `rate_limits` table, so a limit holds across the nodes behind a proxy.
       */
      store:
        e.RATE_LIMIT_STORE ??
        (base.databaseKind === 'postgres' ? ('database' as const) : ('memory' as const)),
    },
  };
}
