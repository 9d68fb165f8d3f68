import { z } from 'zod';
import { idSchema } from './validation-fields.js';

/**
 * Collection downloads (spec §3 Download request, §7 "Downloads"): a zip prepared in the
 * background, split into parts that each unzip on their own.
 */

/** Most files a selection may name; a whole collection has no such bound. */
export const DOWNLOAD_SELECTION_MAX = 1000;
/** Longest `prefix` (a file-name prefix) a download request accepts. */
export const DOWNLOAD_PREFIX_MAX_LENGTH = 255;

/**
 * `inProgress` until every part is stored; `failed` when building gave up (the user may request
 * again); `expired` once the parts were deleted after DOWNLOAD_EXPIRY_HOURS.
 */
export const DOWNLOAD_STATUSES = ['inProgress', 'ready', 'failed', 'expired'] as const;
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];

/**
 * POST /teams/{teamId}/downloads. Without `prefix` or `fileIds` the whole collection; `prefix`
 * keeps the files whose name starts with it; `fileIds` names files of the collection.
 */
export const createDownloadRequestSchema = z
  .object(
    {
      collectionId: idSchema,
      prefix: z
        .string({ error: 'invalidInput' })
        .min(1, { error: 'invalidInput' })
        .max(DOWNLOAD_PREFIX_MAX_LENGTH, { error: 'invalidInput' })
        .optional(),
      fileIds: z
        .array(idSchema, { error: 'invalidInput' })
        .min(1, { error: 'invalidInput' })
        .max(DOWNLOAD_SELECTION_MAX, { error: 'invalidInput' })
        .optional(),
    },
    { error: 'invalidInput' },
  )
  .strict();
export type CreateDownloadRequest = z.infer<typeof createDownloadRequestSchema>;

export const downloadPartSchema = z.object({
  /** 1-based; `…/parts/{partId}`. */
  partId: z.number().int().positive(),
  status: z.enum(['inProgress', 'ready']),
  /** Files in this part. */
  fileCount: z.number().int().nonnegative(),
  /** Bytes of the zip, once stored; null while in progress. */
  size: z.number().int().nonnegative().nullable(),
});
export type DownloadPart = z.infer<typeof downloadPartSchema>;

export const downloadSchema = z.object({
  /** The download's id: `downloadId` in the paths. */
  requestId: z.uuid(),
  teamId: z.uuid(),
  collectionId: z.uuid(),
  collectionName: z.string(),
  status: z.enum(DOWNLOAD_STATUSES),
  /** Known once the files are planned into parts (moments after the request); null before. */
  totalParts: z.number().int().positive().nullable(),
  /** Parts stored and downloadable (a part is offered as soon as it is complete). */
  readyParts: z.number().int().nonnegative(),
  fileCount: z.number().int().nonnegative(),
  /** Sum of the files' sizes (the archive is about as large: photos are stored, not deflated). */
  totalBytes: z.number().int().nonnegative(),
  parts: z.array(downloadPartSchema),
  createdAt: z.iso.datetime(),
  readyAt: z.iso.datetime().nullable(),
  /** When the parts are deleted; null until ready. */
  expiresAt: z.iso.datetime().nullable(),
});
export type Download = z.infer<typeof downloadSchema>;

/** POST /teams/{teamId}/downloads answers 202 with the new download. */
export const createDownloadResponseSchema = downloadSchema;

/**
 * `?localTime=YYYYMMDD-HHmmss` on a link request: the caller's local time, put before the saved
 * file's name (spec §2 Download page), e.g. `20261123-081500 Holidays.zip`.
 */
export const LOCAL_TIME_PATTERN = /^\d{8}-\d{6}$/;
export const downloadLinkQuerySchema = z.object(
  {
    localTime: z
      .string({ error: 'invalidInput' })
      .regex(LOCAL_TIME_PATTERN, { error: 'invalidInput' })
      .optional(),
  },
  { error: 'invalidInput' },
);
export type DownloadLinkQuery = z.infer<typeof downloadLinkQuerySchema>;

/** `…/download` of a download or of one of its parts: a short-lived link that needs no header. */
export const downloadLinkResponseSchema = z.object({ url: z.string() });
export type DownloadLinkResponse = z.infer<typeof downloadLinkResponseSchema>;

const PART_WORDS = { en: ['part', 'of'], it: ['parte', 'di'] } as const;

/**
 * The name a download is saved under (the server's Content-Disposition; the download page shows
 * the same): the caller's local time when given (spec §2), the collection's name made safe for
 * every file system, the part in the requester's language when there are several, `.zip`.
 */
export function archiveFileName(
  collectionName: string,
  opts: { localTime?: string; part?: number; totalParts?: number; locale?: string } = {},
): string {
  const base =
    collectionName
      .normalize('NFC')
      .replace(/[\p{Cc}\p{Cf}<>:"/\\|?*]/gu, '_')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^[.\s]+|[.\s]+$/g, '') || 'download';
  const [partWord, ofWord] = PART_WORDS[opts.locale === 'it' ? 'it' : 'en'];
  const part =
    opts.totalParts !== undefined && opts.totalParts > 1 && opts.part !== undefined
      ? ` (${partWord} ${opts.part} ${ofWord} ${opts.totalParts})`
      : '';
  const time = opts.localTime ? `${opts.localTime} ` : '';
  return `${time}${base}${part}.zip`;
}
