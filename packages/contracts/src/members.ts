import { z } from 'zod';
import {
  MEMBER_ROLES,
  MEMBER_STATUSES,
  MEMBER_TYPES,
  type DisplayMemberStatus,
  type MemberStatus,
} from './constants.js';
import { paginationSchema } from './pagination.js';

/** The member shapes the API answers with (spec §3) and the member status helpers of §4. */

export const memberRoleSchema = z.enum(MEMBER_ROLES);
export const memberStatusSchema = z.enum(MEMBER_STATUSES);
export const memberTypeSchema = z.enum(MEMBER_TYPES);

export const memberSchema = z.object({
  /** Also the member's id in /teams/{teamId}/members/{memberId}. */
  userId: z.uuid(),
  teamId: z.uuid(),
  nickname: z.string(),
  role: memberRoleSchema,
  /** The stored status; see derivedMemberStatus for what to show. */
  status: memberStatusSchema,
  type: memberTypeSchema,
  /** Null for internal members. */
  email: z.string().nullable(),
  /** Set for internal members only. */
  username: z.string().nullable(),
  createdAt: z.iso.datetime(),
  createdBy: z.uuid(),
  /** Null until the member joins. */
  joinedAt: z.iso.datetime().nullable(),
  avatarUrl: z.string().nullable(),
  /** Epoch milliseconds, unlike every other time; null once the invitation is no longer pending. */
  inviteExpiresAt: z.number().int().nullable(),
});
export type Member = z.infer<typeof memberSchema>;

export const memberListResponseSchema = z.object({
  members: z.array(memberSchema),
  pagination: paginationSchema,
});
export type MemberListResponse = z.infer<typeof memberListResponseSchema>;

/** An internal member's sign-in data, shown once after creation or a password reset. */
export const credentialsSchema = z.object({
  teamId: z.uuid(),
  /** The preferred alias, easier to type than the id; null while the team has none. */
  teamAlias: z.string().nullable(),
  username: z.string(),
  password: z.string(),
  /**
   * The team's short code (7 characters, no 0/O/1/I/L, any case) to type at sign-in; the id and
   * the aliases work too.
   */
  teamCode: z.string(),
});
export type Credentials = z.infer<typeof credentialsSchema>;

/** An invitation whose expiry is now or past shows as invitation_expired (spec §4). */
export function derivedMemberStatus(
  member: { status: MemberStatus; inviteExpiresAt?: number | null },
  now: number,
): DisplayMemberStatus {
  const expiresAt = member.inviteExpiresAt;
  if (member.status === 'invited' && expiresAt != null && expiresAt <= now) {
    return 'invitation_expired';
  }
  return member.status;
}

export type StatusColor = 'success' | 'warning' | 'error';

export const MEMBER_STATUS_COLOR = {
  active: 'success',
  invited: 'warning',
  pending: 'warning',
  rejected: 'error',
  left: 'error',
  banned: 'error',
  disabled: 'error',
  invitation_expired: 'error',
} as const satisfies Record<DisplayMemberStatus, StatusColor>;
