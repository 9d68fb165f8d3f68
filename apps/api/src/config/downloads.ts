import { z } from 'zod';
import type { Base } from './env.js';

/** Collection downloads (zip parts) and how file links are sent. */
export const downloadsEnv = z.object({
  DOWNLOAD_PART_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(2 * 1024 ** 3),
  DOWNLOAD_EXPIRY_HOURS: z.coerce.number().int().min(1).max(720).default(72),
  /** `nginx`: signed links of local files answer X-Accel-Redirect; nginx sends the bytes. */
  DOWNLOAD_OFFLOAD: z.enum(['off', 'nginx']).default('off'),
  DOWNLOAD_OFFLOAD_PREFIX: z
    .string()
    .regex(/^\/[\w-]+(?:\/[\w-]+)*\/$/, 'a path such as /_raccolta_files/')
    .default('/_raccolta_files/'),
  DOWNLOAD_TEAM_BUDGET_FACTOR: z.coerce.number().min(1).max(100).default(3),
  DOWNLOAD_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(30),
});

export function downloadsConfig(e: z.output<typeof downloadsEnv>, base: Pick<Base, 'storageKind'>) {
  return {
    downloads: {
      /** Each zip part holds at most this many bytes (a single bigger file gets a part of its own). */
      partMaxBytes: e.DOWNLOAD_PART_MAX_BYTES,
      /** Ready archives are deleted this long after they are ready. */
      expiryMs: e.DOWNLOAD_EXPIRY_HOURS * 60 * 60_000,
      /**
       * Archives a team's members may have prepared or being prepared at once, as a multiple of the
       * bytes the team stores (at least DOWNLOAD_TEAM_BUDGET_MIN_BYTES).
       */
      teamBudgetFactor: e.DOWNLOAD_TEAM_BUDGET_FACTOR,
      /** Collection downloads one member may request in an hour. */
      requestsPerHour: e.DOWNLOAD_REQUESTS_PER_HOUR,
    },
    /**
     * DOWNLOAD_OFFLOAD=nginx with local storage: a signed link, once checked, answers
     * `X-Accel-Redirect: <prefix><key>` and nginx's internal location under `prefix` sends the
     * file (sendfile, ranges). Encrypted objects are still deciphered and sent by the API. null: off.
     */
    downloadOffload:
      e.DOWNLOAD_OFFLOAD === 'nginx' && base.storageKind === 'local'
        ? { prefix: e.DOWNLOAD_OFFLOAD_PREFIX }
        : null,
  };
}
