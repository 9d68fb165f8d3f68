import { z } from 'zod';

/** The storage integrity check (integrity/verify-storage.ts). */
export const integrityEnv = z.object({
  /** Hours between scheduled storage integrity checks; 0: none (`npm run admin -- verify-storage`). */
  VERIFY_STORAGE_INTERVAL_HOURS: z.coerce.number().min(0).max(8760).default(0),
  /** MiB the integrity check reads per second at most, so uploads keep the disk; 0: no bound. */
  VERIFY_STORAGE_MAX_MB_PER_SECOND: z.coerce.number().min(0).max(100_000).default(50),
});

export function integrityConfig(e: z.output<typeof integrityEnv>) {
  return {
    /** The storage integrity check (integrity/verify-storage.ts). */
    integrity: {
      /** Between scheduled runs; 0: never scheduled. */
      intervalMs: Math.round(e.VERIFY_STORAGE_INTERVAL_HOURS * 60 * 60_000),
      /** Bytes read per second at most; 0: no bound. */
      maxBytesPerSecond: Math.round(e.VERIFY_STORAGE_MAX_MB_PER_SECOND * 1024 * 1024),
    },
  };
}
