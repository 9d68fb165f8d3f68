import { z } from 'zod';
import { COLLECTION_MODES, COLLECTION_VIEWS, SORT_DIRECTIONS } from './constants.js';
import { pageQuerySchema, paginationSchema } from './pagination.js';
import {
  bodySchema,
  collectionDescriptionSchema,
  collectionModeSchema,
  collectionNameSchema,
  idSchema,
} from './validation-fields.js';
import { epochMsSchema } from './validation-filters.js';
import { deadlineInputSchema, deadlineSchema } from './deadlines.js';

/** Collection shapes, list queries and changes (spec §3 Collection, §7 "Collections and files"). */

export const COLLECTION_STATUSES = ['draft', 'ready'] as const;
export type CollectionStatus = (typeof COLLECTION_STATUSES)[number];

/** Most tags a collection may carry (not in the spec: a bound so a PATCH stays small). */
export const COLLECTION_TAGS_MAX = 50;

/** A team member as lists show them: who owns a collection, who uploaded a file, who is tagged. */
export const memberRefSchema = z.object({
  userId: z.uuid(),
  /** The member's name in the team; null for an account no longer in it. */
  nickname: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type MemberRef = z.infer<typeof memberRefSchema>;

export const collectionSchema = z.object({
  teamId: z.uuid(),
  collectionId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  /** collaborative: shared with every contributor; owned: private to its creator. */
  mode: z.enum(COLLECTION_MODES),
  /** draft until its first file arrives. */
  status: z.enum(COLLECTION_STATUSES),
  /** User ids of the tagged members (spec §3), in the order they were set. */
  tags: z.array(z.uuid()),
  /** The same members with their names, for display. */
  taggedMembers: z.array(memberRefSchema),
  createdBy: z.uuid(),
  /** The creator, who owns the collection. */
  owner: memberRefSchema,
  createdAt: z.iso.datetime(),
  /** Moves with every change and every file added or removed: the lists' reference date. */
  updatedAt: z.iso.datetime(),
  updatedBy: z.uuid(),
  /** When the caller last opened this collection; null if never. */
  readAt: z.iso.datetime().nullable(),
  filesCount: z.number().int().nonnegative(),
  /** Its deadline, or null (issue #36); see dueState in deadlines.ts. */
  deadline: deadlineSchema.nullable(),
  /** After the deadline: true accepts files, marked late; false refuses them (collectionClosed). */
  allowLateUploads: z.boolean(),
});
export type Collection = z.infer<typeof collectionSchema>;

export const collectionListResponseSchema = z.object({
  collections: z.array(collectionSchema),
  pagination: paginationSchema,
});
export type CollectionListResponse = z.infer<typeof collectionListResponseSchema>;

const INVALID = { error: 'invalidInput' } as const;

/** sort, from and to, shared by every collection and file list (by updatedAt); a bad sort is its own code (spec §8). */
export const listFilterShape = {
  sort: z.enum(SORT_DIRECTIONS, { error: 'invalidSorting' }).default('desc'),
  from: epochMsSchema.optional(),
  to: epochMsSchema.optional(),
};

/** from after to: both bounds carry filterStartEndDateInvalid, as the date filter shows it. */
export function refineDateRange(
  range: { from?: number | undefined; to?: number | undefined },
  ctx: z.RefinementCtx,
) {
  if (range.from === undefined || range.to === undefined || range.from <= range.to) return;
  ctx.addIssue({ code: 'custom', message: 'filterStartEndDateInvalid', path: ['from'] });
  ctx.addIssue({ code: 'custom', message: 'filterStartEndDateInvalid', path: ['to'] });
}

/**
 * GET /teams/{teamId}/collections: `member` = created by that user, `tagged` = tagged with that
 * user, `view=collaborative` = shared collections only. All filters combine.
 */
export const collectionListQuerySchema = pageQuerySchema
  .extend({
    member: idSchema.optional(),
    tagged: idSchema.optional(),
    view: z.enum(COLLECTION_VIEWS, INVALID).default('all'),
    ...listFilterShape,
  })
  .superRefine(refineDateRange);
export type CollectionListQuery = z.input<typeof collectionListQuerySchema>;

/** The lists whose scope is in the path (GET /collections, member and shared collections). */
export const collectionScopedListQuerySchema = pageQuerySchema
  .extend({ tagged: idSchema.optional(), ...listFilterShape })
  .superRefine(refineDateRange);

/** POST /teams/{teamId}/collections answers with the new collection (201). */
export const createCollectionResponseSchema = collectionSchema;

const tagsValueSchema = z
  .array(idSchema, INVALID)
  .max(COLLECTION_TAGS_MAX, INVALID)
  .refine((ids) => new Set(ids).size === ids.length, INVALID);

/**
 * PATCH /teams/{teamId}/collections/{collectionId}: RFC 6902 `replace` (or `test`) over /name,
 * /description and /deadline (also `add`/`remove`), /tags, /mode and /allowLateUploads. Tags must be members of the team; a
 * `replace` of /mode needs canChangeCollectionMode. Operations apply in order, all or none.
 */
const op = z.enum(['replace', 'test'], INVALID);
export const collectionPatchSchema = z
  .array(
    z.discriminatedUnion(
      'path',
      [
        z.object({ op, path: z.literal('/name'), value: collectionNameSchema }),
        // A blank value, or `remove`, clears the description.
        z.object({
          op: z.enum(['replace', 'add', 'remove', 'test'], INVALID),
          path: z.literal('/description'),
          value: collectionDescriptionSchema,
        }),
        z.object({ op, path: z.literal('/tags'), value: tagsValueSchema }),
        z.object({ op, path: z.literal('/mode'), value: collectionModeSchema }),
        // null, or `remove`, clears the deadline.
        z.object({
          op: z.enum(['replace', 'add', 'remove', 'test'], INVALID),
          path: z.literal('/deadline'),
          value: deadlineInputSchema.nullable().optional(),
        }),
        z.object({ op, path: z.literal('/allowLateUploads'), value: z.boolean(INVALID) }),
      ],
      INVALID,
    ),
    INVALID,
  )
  .min(1, INVALID)
  .max(10, INVALID);
export type CollectionPatch = z.infer<typeof collectionPatchSchema>;

export const updateCollectionFormSchema = bodySchema({
  name: collectionNameSchema,
  description: collectionDescriptionSchema,
});
