import { z } from 'zod';
import { FORBIDDEN_TEXT_PATTERN } from './validation-fields.js';

/**
 * Upload links for guests (issue #36): a collection's owner, an admin or the collection's
 * creator makes a link; whoever has it uploads into the collection without an account.
 */

export const UPLOAD_LINK_LABEL_MAX_LENGTH = 100;
export const UPLOAD_LINK_PASSWORD_MIN_LENGTH = 4;
export const UPLOAD_LINK_PASSWORD_MAX_LENGTH = 128;
export const UPLOAD_LINK_MAX_ACCEPTED_TYPES = 20;
/** How long a guest may delete what they uploaded through a link. */
export const GUEST_DELETE_WINDOW_MS = 60 * 60 * 1000;
export const GUEST_NAME_MAX_LENGTH = 80;

/**
 * A media type or a family of them (`image/*`, `*\/*`), lower case: what a link accepts, checked
 * against the sniffed type of each file and against the types the server allows.
 */
export const MEDIA_TYPE_PATTERN =
  /^(?:\*\/\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126}))$/;

const INVALID = { error: 'invalidInput' } as const;

const acceptedTypesSchema = z
  .array(z.string(INVALID).trim().toLowerCase().regex(MEDIA_TYPE_PATTERN, INVALID), INVALID)
  .min(1, INVALID)
  .max(UPLOAD_LINK_MAX_ACCEPTED_TYPES, INVALID)
  .refine((types) => new Set(types).size === types.length, INVALID);

const labelSchema = z
  .string(INVALID)
  .trim()
  .max(UPLOAD_LINK_LABEL_MAX_LENGTH, INVALID)
  .refine((v) => !FORBIDDEN_TEXT_PATTERN.test(v), INVALID);

const passwordSchema = z
  .string(INVALID)
  .min(UPLOAD_LINK_PASSWORD_MIN_LENGTH, { error: 'passwordShort' })
  .max(UPLOAD_LINK_PASSWORD_MAX_LENGTH, { error: 'passwordLong' });

const capSchema = z.number(INVALID).int(INVALID).positive(INVALID).max(Number.MAX_SAFE_INTEGER);

/** A link as its managers see it. The guest URL carries the link's secret token. */
export const uploadLinkSchema = z.object({
  linkId: z.uuid(),
  collectionId: z.uuid(),
  label: z.string().nullable(),
  hasPassword: z.boolean(),
  expiresAt: z.iso.datetime().nullable(),
  maxFiles: z.number().int().positive().nullable(),
  maxBytes: z.number().int().positive().nullable(),
  /** Media types or families (`image/*`), each within the types the server allows. */
  acceptedTypes: z.array(z.string()),
  requireName: z.boolean(),
  requireEmail: z.boolean(),
  enabled: z.boolean(),
  /** Files that came through the link and are still in the collection. */
  fileCount: z.number().int().nonnegative(),
  byteCount: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
  /** The page a guest opens (upload app), with the token: what the QR code encodes. */
  url: z.string(),
});
export type UploadLink = z.infer<typeof uploadLinkSchema>;

export const uploadLinkListResponseSchema = z.object({ links: z.array(uploadLinkSchema) });
export type UploadLinkListResponse = z.infer<typeof uploadLinkListResponseSchema>;

/** POST …/collections/{collectionId}/links. acceptedTypes defaults to the server's allowed types. */
export const createUploadLinkSchema = z.object(
  {
    label: labelSchema.optional(),
    password: passwordSchema.optional(),
    expiresAt: z.iso.datetime(INVALID).optional(),
    maxFiles: capSchema.optional(),
    maxBytes: capSchema.optional(),
    acceptedTypes: acceptedTypesSchema.optional(),
    requireName: z.boolean(INVALID).default(true),
    requireEmail: z.boolean(INVALID).default(false),
  },
  INVALID,
);
export type CreateUploadLink = z.input<typeof createUploadLinkSchema>;

/**
 * PATCH …/links/{linkId}: the fields to change; null clears an optional one (password, expiry,
 * caps, label). `enabled` disables and re-enables the link.
 */
export const updateUploadLinkSchema = z
  .object(
    {
      label: labelSchema.nullable().optional(),
      password: passwordSchema.nullable().optional(),
      expiresAt: z.iso.datetime(INVALID).nullable().optional(),
      maxFiles: capSchema.nullable().optional(),
      maxBytes: capSchema.nullable().optional(),
      acceptedTypes: acceptedTypesSchema.optional(),
      requireName: z.boolean(INVALID).optional(),
      requireEmail: z.boolean(INVALID).optional(),
      enabled: z.boolean(INVALID).optional(),
    },
    INVALID,
  )
  .strict()
  .refine((body) => Object.keys(body).length > 0, INVALID);
export type UpdateUploadLink = z.input<typeof updateUploadLinkSchema>;

/**
 * A guest link's secret: 32 random bytes, base64url (256 bits). A token of another shape is
 * answered as an unknown one (uploadLinkNotFound), never as bad input.
 */
export const UPLOAD_LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,100}$/;

export const openUploadLinkSchema = z.object(
  {
    password: z.string(INVALID).max(UPLOAD_LINK_PASSWORD_MAX_LENGTH, INVALID).optional(),
    guestId: z.uuid(INVALID).optional(),
  },
  INVALID,
);
export type OpenUploadLink = z.input<typeof openUploadLinkSchema>;

/** GET /guest/links/{token}: what the guest page shows before anything is sent. */
export const uploadLinkInfoSchema = z.object({
  collectionName: z.string(),
  collectionDescription: z.string().nullable(),
  teamName: z.string(),
  /** The team's logo, or null. */
  teamLogoUrl: z.string().nullable(),
  acceptedTypes: z.array(z.string()),
  requireName: z.boolean(),
  requireEmail: z.boolean(),
  requirePassword: z.boolean(),
  maxFileBytes: z.number().int().positive(),
});
export type UploadLinkInfo = z.infer<typeof uploadLinkInfoSchema>;

/** The answer of open: a short-lived token for the guest's uploads through this link. */
export const guestSessionSchema = z.object({
  guestToken: z.string(),
  guestId: z.uuid(),
  expiresAt: z.iso.datetime(),
  link: uploadLinkInfoSchema,
});
export type GuestSession = z.infer<typeof guestSessionSchema>;

/** A file the guest sent through this link: theirs alone, deletable for an hour. */
export const guestFileSchema = z.object({
  fileId: z.uuid(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  createdAt: z.iso.datetime(),
  /** Until when the guest may still delete it. */
  deletableUntil: z.iso.datetime(),
});
export type GuestFile = z.infer<typeof guestFileSchema>;

export const guestFileListResponseSchema = z.object({ files: z.array(guestFileSchema) });
export type GuestFileListResponse = z.infer<typeof guestFileListResponseSchema>;
