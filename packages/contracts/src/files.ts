import { z } from 'zod';
import { listFilterShape, memberRefSchema, refineDateRange } from './collections.js';
import { pageQuerySchema, paginationSchema } from './pagination.js';
import { idSchema } from './validation-fields.js';

/** File shapes and list queries (spec §3 File, §7 "Collections and files"). */

/** The states of a file's thumbnail and preview; see fileSchema.renditionStatus. */
export const RENDITION_STATUSES = ['pending', 'ready', 'failed', 'none'] as const;
export type RenditionStatus = (typeof RENDITION_STATUSES)[number];

/** Longest name kept for a file; longer names are shortened keeping their extension. */
export const FILE_NAME_MAX_LENGTH = 255;

export const fileSchema = z.object({
  fileId: z.uuid(),
  teamId: z.uuid(),
  collectionId: z.uuid(),
  /** The name to show: the uploaded name made safe (no folders, no control characters, bounded). */
  name: z.string(),
  /**
   * The name as the client sent it (paths included), without control, bidi and zero-width
   * characters, at most 255 characters; for display only.
   */
  originalName: z.string(),
  /** Sniffed from the bytes at upload, not the client's claim. */
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  /** Hex SHA-256 of the stored bytes. */
  sha256: z.string(),
  /** A short-lived link to a 320 px WebP; null while not made (or not an image, or it failed). */
  thumbnailUrl: z.string().nullable(),
  /** A short-lived link to a 1600 px WebP; null when there is none. */
  previewUrl: z.string().nullable(),
  /**
   * Where the thumbnail and preview stand: `pending` while the background job may still make
   * them (ask again), `ready` when the links are set, `failed` when they cannot be made, `none`
   * for a type that gets none. A client waits only while it is `pending`.
   */
  renditionStatus: z.enum(RENDITION_STATUSES),
  /** For a guest's file (upload link): the member who made the link. */
  uploadedBy: z.uuid(),
  uploader: memberRefSchema,
  /**
   * Sent by a guest through an upload link: the link and what the guest gave ("Guest: Anna"
   * where the uploader is shown); null for a member's upload.
   */
  guest: z
    .object({ linkId: z.uuid(), name: z.string().nullable(), email: z.string().nullable() })
    .nullable(),
  /** Arrived after its collection's deadline, which allowed late uploads (issue #36). */
  late: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** When the caller opened its preview or downloaded it; null while unread. */
  readAt: z.iso.datetime().nullable(),
  /**
   * The storage integrity check found its stored original no longer matching the SHA-256
   * recorded at upload, or missing: a download would not give back what was uploaded. Owners
   * and admins restore it from a backup (docs/operations.md).
   */
  damaged: z.boolean(),
});
export type FileItem = z.infer<typeof fileSchema>;

export const fileListResponseSchema = z.object({
  files: z.array(fileSchema),
  pagination: paginationSchema,
});
export type FileListResponse = z.infer<typeof fileListResponseSchema>;

/**
 * Every file list: `creator` = uploaded by that user, `link` = sent through that upload link,
 * `guest` = sent by a guest of that name; sort by updatedAt; from/to inclusive.
 */
export const fileListQuerySchema = pageQuerySchema
  .extend({
    creator: idSchema.optional(),
    link: idSchema.optional(),
    guest: z
      .string({ error: 'invalidInput' })
      .trim()
      .min(1, { error: 'invalidInput' })
      .max(80, { error: 'invalidInput' })
      .optional(),
    ...listFilterShape,
  })
  .superRefine(refineDateRange);
export type FileListQuery = z.input<typeof fileListQuerySchema>;

/**
 * GET …/files/{fileId}/download `?disposition=inline`: a link that shows a PDF in the browser's
 * own viewer (the preview's frame) instead of saving it; any other type is an attachment anyway.
 */
export const fileDownloadQuerySchema = z.object(
  {
    disposition: z.enum(['attachment', 'inline'], { error: 'invalidInput' }).optional(),
  },
  { error: 'invalidInput' },
);
export type FileDownloadQuery = z.infer<typeof fileDownloadQuerySchema>;

/** GET …/files/{fileId}/download: a short-lived link that downloads the original as an attachment. */
export const fileDownloadResponseSchema = z.object({ url: z.string() });
export type FileDownloadResponse = z.infer<typeof fileDownloadResponseSchema>;

/** A SHA-256 digest as lowercase hex, as browsers compute it before uploading. */
export const sha256HexSchema = z
  .string({ error: 'invalidInput' })
  .regex(/^[0-9a-f]{64}$/, { error: 'invalidInput' });

/** Most digests one lookup may ask about: a queue sends its files in batches of this size. */
export const FILE_LOOKUP_MAX_HASHES = 100;

/**
 * POST …/collections/{collectionId}/files/lookup: which of these digests (of the bytes as they
 * would be uploaded) the collection already holds.
 */
export const fileLookupRequestSchema = z
  .object(
    {
      sha256: z
        .array(sha256HexSchema, { error: 'invalidInput' })
        .min(1, { error: 'invalidInput' })
        .max(FILE_LOOKUP_MAX_HASHES, { error: 'invalidInput' }),
    },
    { error: 'invalidInput' },
  )
  .strict();
export type FileLookupRequest = z.infer<typeof fileLookupRequestSchema>;

/** One file of the collection with a digest asked about (the oldest, when several have it). */
export const fileLookupMatchSchema = z.object({
  sha256: z.string(),
  fileId: z.uuid(),
  name: z.string(),
  createdAt: z.iso.datetime(),
});
export type FileLookupMatch = z.infer<typeof fileLookupMatchSchema>;

/** The digests asked about that the collection holds, each once; the others are not listed. */
export const fileLookupResponseSchema = z.object({ found: z.array(fileLookupMatchSchema) });
export type FileLookupResponse = z.infer<typeof fileLookupResponseSchema>;

/** Files of a collection holding the same content: the oldest first, the one to keep. */
export const duplicateGroupSchema = z.object({
  sha256: z.string(),
  files: z.array(fileSchema),
});
export type DuplicateGroup = z.infer<typeof duplicateGroupSchema>;

/** Most groups one duplicates answer lists; `more` says there are others beyond them. */
export const DUPLICATE_GROUPS_MAX = 100;

/** GET …/collections/{collectionId}/files/duplicates. */
export const duplicatesResponseSchema = z.object({
  groups: z.array(duplicateGroupSchema),
  more: z.boolean(),
});
export type DuplicatesResponse = z.infer<typeof duplicatesResponseSchema>;

/** The icon a file shows when it has no thumbnail (spec §2 Files screen). */
export type FileIconKind = 'image' | 'pdf' | 'zip' | 'application' | 'generic';

const ZIP_TYPES = new Set([
  'application/zip',
  'application/x-zip-compressed',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/vnd.rar',
  'application/gzip',
  'application/x-tar',
  'application/x-bzip2',
  'application/x-xz',
]);

export function fileIconKind(contentType: string): FileIconKind {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (ZIP_TYPES.has(type)) return 'zip';
  if (type.startsWith('application/')) return 'application';
  return 'generic';
}
