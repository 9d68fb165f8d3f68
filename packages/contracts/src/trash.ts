import { z } from 'zod';
import { memberRefSchema } from './collections.js';
import { pageQuerySchema, paginationSchema } from './pagination.js';
import { canDeleteCollection, canDeleteFile } from './permissions.js';
import type { MemberRole } from './constants.js';
import { bodySchema, idSchema } from './validation-fields.js';

/**
 * The team's trash (docs/operations.md): deleted files and collections stay restorable for
 * TRASH_DAYS, then a job purges them and their stored bytes.
 */

/** Who may see, restore and empty a team's trash: whoever may delete what it holds (spec §6). */
export function canManageTrash(role: MemberRole): boolean {
  return canDeleteFile(role) || canDeleteCollection(role);
}

/** Most items one restore or purge request names. */
export const TRASH_BATCH_MAX = 100;

export const trashItemSchema = z.object({
  /** The deleted file's or collection's id. */
  itemId: z.uuid(),
  kind: z.enum(['file', 'collection']),
  name: z.string(),
  /** The collection it was deleted from (for a collection: itself). */
  collectionId: z.uuid(),
  collectionName: z.string(),
  /** A file's size; a collection's files together. Both still count toward the team's storage. */
  size: z.number().int().nonnegative(),
  /** A collection's files, deleted with it; 1 for a file. */
  fileCount: z.number().int().nonnegative(),
  /** A file's sniffed type; null for a collection. */
  contentType: z.string().nullable(),
  deletedBy: memberRefSchema,
  deletedAt: z.iso.datetime(),
  /** When it is deleted for good, with its bytes. */
  purgeAt: z.iso.datetime(),
});
export type TrashItem = z.infer<typeof trashItemSchema>;

export const trashListQuerySchema = pageQuerySchema;
export type TrashListQuery = z.input<typeof trashListQuerySchema>;

export const trashListResponseSchema = z.object({
  items: z.array(trashItemSchema),
  /** Everything in the trash, not only this page. */
  totals: z.object({
    items: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
  }),
  /** How many days an item stays (TRASH_DAYS). */
  trashDays: z.number().int().positive(),
  pagination: paginationSchema,
});
export type TrashListResponse = z.infer<typeof trashListResponseSchema>;

export const trashSelectionSchema = bodySchema({
  itemIds: z
    .array(idSchema, { error: 'invalidInput' })
    .min(1, { error: 'invalidInput' })
    .max(TRASH_BATCH_MAX, { error: 'invalidInput' }),
});
export type TrashSelection = z.infer<typeof trashSelectionSchema>;

export const trashRestoreResponseSchema = z.object({
  /** Files back in their collections (those of a restored collection included). */
  files: z.number().int().nonnegative(),
  /** Collections brought back, asked for or needed by a restored file. */
  collections: z.number().int().nonnegative(),
});
export type TrashRestoreResponse = z.infer<typeof trashRestoreResponseSchema>;

export const trashPurgeResponseSchema = z.object({
  /** Files deleted for good (a collection's included). */
  files: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
});
export type TrashPurgeResponse = z.infer<typeof trashPurgeResponseSchema>;
