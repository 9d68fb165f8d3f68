import { z } from 'zod';

/** The background worker: inline in the API process or in processes of its own. */
export const jobsEnv = z.object({
  WORKER: z.enum(['inline', 'off']).default('inline'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  JOB_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  JOB_POLL_MS: z.coerce.number().int().min(10).default(1000),
});

export function jobsConfig(e: z.output<typeof jobsEnv>) {
  return {
    worker: {
      inline: e.WORKER === 'inline',
      concurrency: e.WORKER_CONCURRENCY,
      leaseMs: e.JOB_LEASE_MS,
      pollMs: e.JOB_POLL_MS,
    },
  };
}
