import type { Member } from '@raccolta/contracts';
import type { MemberView } from './members.repository.js';

/** A membership as the API shows it (spec §3): username for internal members only. */
export function presentMember(row: MemberView): Member {
  const internal = row.type === 'internal';
  return {
    userId: row.user_id,
    teamId: row.team_id,
    nickname: row.nickname ?? row.user_nickname ?? row.user_username,
    role: row.role,
    status: row.status,
    type: row.type,
    email: internal ? null : (row.email ?? row.user_email),
    username: internal ? row.user_username : null,
    createdAt: new Date(row.created_at).toISOString(),
    // Rows made before anyone was recorded as their creator count as joining by themselves.
    createdBy: row.created_by ?? row.user_id,
    joinedAt: row.joined_at === null ? null : new Date(row.joined_at).toISOString(),
    avatarUrl: row.user_avatar_url,
    inviteExpiresAt: row.status === 'invited' ? row.invite_expires_at : null,
  };
}
