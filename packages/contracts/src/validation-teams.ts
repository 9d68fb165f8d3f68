import { deadlineInputSchema, localDateTimeSchema, timeZoneSchema } from './deadlines.js';
import { z } from 'zod';
import { INTERNAL_MEMBER_ROLE, type MemberRole } from './constants.js';
import { memberRoleSchema, memberStatusSchema } from './members.js';
import { ROLE_CHANGE_TARGETS } from './permissions.js';
import {
  aliasSchema,
  bodySchema,
  collectionDescriptionSchema,
  collectionModeSchema,
  collectionNameSchema,
  emailSchema,
  idSchema,
  linkParamSchema,
  localeSchema,
  nicknameSchema,
  optionalNicknameSchema,
  passwordSchema,
  roleSchema,
  teamDescriptionSchema,
  teamModeSchema,
  teamNameSchema,
  usernameSchema,
} from './validation-fields.js';

/** Request bodies of the team, member, invitation and collection calls (spec §7) and their forms. */

// Teams
export const createTeamRequestSchema = bodySchema({
  name: teamNameSchema,
  description: teamDescriptionSchema,
  nickname: optionalNicknameSchema,
  mode: teamModeSchema,
});
export type CreateTeamRequest = z.infer<typeof createTeamRequestSchema>;

/** The create-team dialog: the mode is a checkbox, checked meaning collaborative. */
export const createTeamFormSchema = bodySchema({
  name: teamNameSchema,
  description: teamDescriptionSchema,
  nickname: optionalNicknameSchema,
  isCollaborative: z.boolean({ error: 'teamModeRequired' }),
});
export type CreateTeamForm = z.infer<typeof createTeamFormSchema>;

export const renameTeamFormSchema = bodySchema({ name: teamNameSchema });
export type RenameTeamForm = z.infer<typeof renameTeamFormSchema>;

/** POST /teams/{teamId}/aliases. A new alias becomes the preferred one, hence star true by default. */
export const createAliasRequestSchema = bodySchema({
  alias: aliasSchema,
  star: z.boolean({ error: 'invalidInput' }).default(true),
});
export type CreateAliasRequest = z.infer<typeof createAliasRequestSchema>;

// Members
export const inviteMemberRequestSchema = bodySchema({
  email: emailSchema,
  nickname: nicknameSchema,
  role: roleSchema,
  locale: localeSchema,
});
export type InviteMemberRequest = z.infer<typeof inviteMemberRequestSchema>;

/** Internal contributors are always uploaders; the form shows the role with the selector disabled. */
export const createInternalMemberRequestSchema = bodySchema({
  username: usernameSchema,
  role: z.literal(INTERNAL_MEMBER_ROLE, { error: 'roleRequired' }),
  locale: localeSchema,
});
export type CreateInternalMemberRequest = z.infer<typeof createInternalMemberRequestSchema>;

export const renameMemberFormSchema = bodySchema({ nickname: nicknameSchema });
export type RenameMemberForm = z.infer<typeof renameMemberFormSchema>;

export const resendInvitationRequestSchema = bodySchema({ userId: idSchema });
export type ResendInvitationRequest = z.infer<typeof resendInvitationRequestSchema>;

// Invitations
/** The query of the accept link: `key` is what the accept call sends as `token`. */
export const acceptInvitationLinkQuerySchema = bodySchema({
  key: linkParamSchema('invalidAcceptToken'),
});

export const rejectInvitationLinkQuerySchema = bodySchema({
  key: linkParamSchema('invalidRejectToken'),
});

/** The password is sent only on the retry after newInvitedAccountRequired. */
export const acceptInvitationRequestSchema = bodySchema({
  token: linkParamSchema('invalidAcceptToken'),
  password: passwordSchema.optional(),
});
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;

export const rejectInvitationRequestSchema = bodySchema({
  token: linkParamSchema('invalidRejectToken'),
});
export type RejectInvitationRequest = z.infer<typeof rejectInvitationRequestSchema>;

// Collections
export const createCollectionRequestSchema = bodySchema({
  name: collectionNameSchema,
  description: collectionDescriptionSchema,
  mode: collectionModeSchema,
  /** Optional (issue #36): the local date and time and its zone. */
  deadline: deadlineInputSchema.nullable().optional(),
  allowLateUploads: z.boolean({ error: 'invalidInput' }).optional(),
});
export type CreateCollectionRequest = z.infer<typeof createCollectionRequestSchema>;

/** The create-collection dialog: checked means collaborative (shared), unchecked owned. */
export const createCollectionFormSchema = bodySchema({
  name: collectionNameSchema,
  description: collectionDescriptionSchema,
  isCollaborative: z.boolean({ error: 'collectionModeRequired' }),
  /** Issue #36: the deadline's local date and time ("" for none) and zone, as the form holds them. */
  deadlineLocal: z
    .union([z.literal(''), localDateTimeSchema], { error: 'invalidDeadline' })
    .optional(),
  deadlineZone: timeZoneSchema.optional(),
  allowLateUploads: z.boolean({ error: 'invalidInput' }).optional(),
});
export type CreateCollectionForm = z.infer<typeof createCollectionFormSchema>;

// Member changes
/**
 * PATCH /teams/{teamId}/members/{memberId}: an RFC 6902 list over /role, /nickname and /status,
 * `replace` to change and `test` to guard against a concurrent change. Any other op or path
 * fails the schema (400 invalidInput) and nothing is applied.
 */
const op = z.enum(['replace', 'test'], { error: 'invalidInput' });
const assignable: readonly MemberRole[] = ROLE_CHANGE_TARGETS;

const roleOp = z
  .object({ op, path: z.literal('/role'), value: memberRoleSchema })
  .refine((o) => o.op === 'test' || assignable.includes(o.value), {
    error: 'roleRequired',
    path: ['value'],
  });
const nicknameOp = z.object({ op, path: z.literal('/nickname'), value: nicknameSchema });
const statusOp = z.object({ op, path: z.literal('/status'), value: memberStatusSchema });

export const memberPatchSchema = z
  .array(z.discriminatedUnion('path', [roleOp, nicknameOp, statusOp], { error: 'invalidInput' }), {
    error: 'invalidInput',
  })
  .min(1, { error: 'invalidInput' })
  .max(10, { error: 'invalidInput' });
export type MemberPatch = z.infer<typeof memberPatchSchema>;
