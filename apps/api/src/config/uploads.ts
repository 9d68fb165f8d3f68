import path from 'node:path';
import { z } from 'zod';
import { csv, type Base } from './env.js';

/** What an upload may be, how long a resumable one may take, and the renditions made of it. */
export const uploadsEnv = z.object({
  UPLOAD_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 ** 3),
  UPLOAD_ALLOWED_TYPES: csv.optional(),
  UPLOAD_TEAM_MAX_BYTES: z.coerce.number().int().min(0).default(0),
  UPLOAD_EXPIRY_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  UPLOAD_LOCKS: z.enum(['memory', 'database']).default('memory'),
  IMAGE_MAX_INPUT_PIXELS: z.coerce.number().int().min(1).default(100_000_000),
  RENDITION_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
});

export function uploadsConfig(e: z.output<typeof uploadsEnv>, base: Pick<Base, 'dataDir'>) {
  return {
    /** Where resumable uploads keep their bytes until the last one arrives (local storage). */
    uploadsDir: path.join(base.dataDir, 'uploads'),
    files: {
      /** Largest file a single upload may store. */
      maxFileBytes: e.UPLOAD_MAX_FILE_BYTES,
      /** Sniffed content types an upload may have: exact (`image/png`) or a family (`image/*`). */
      allowedTypes: e.UPLOAD_ALLOWED_TYPES ?? ['*/*'],
      /** Thumbnails are refused for images with more pixels than this (decompression bombs). */
      maxInputPixels: e.IMAGE_MAX_INPUT_PIXELS,
      /** Lifetime of thumbnail and preview links. */
      renditionUrlTtlSeconds: e.RENDITION_URL_TTL_SECONDS,
      /** Total bytes a team may store (its files plus uploads in progress); 0 = no limit. */
      teamMaxBytes: e.UPLOAD_TEAM_MAX_BYTES,
      /** A resumable upload not finished within this time is abandoned and its bytes deleted. */
      uploadExpiryMs: e.UPLOAD_EXPIRY_HOURS * 60 * 60_000,
      /**
       * Where tus requests on one upload lock it against each other: in the process (`memory`), or
       * in the database (`database`), for several API processes without sticky sessions.
       */
      uploadLocks: e.UPLOAD_LOCKS,
    },
  };
}
