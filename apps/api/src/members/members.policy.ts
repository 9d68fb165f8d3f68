import {
  allowedMemberStatusTransition,
  canAddMember,
  canChangeMemberRole,
  canDisableMember,
  canReactivateMember,
  canRemoveMember,
  canRenameMember,
  canResendInvitation,
  canResetMemberPassword,
  canSeeMemberInfo,
  hasPermission,
  type MemberActionInput,
  type MemberRole,
  type MemberStatus,
} from '@raccolta/contracts';
import type { MemberRow } from './members.repository.js';

/**
 * One decision per member action. Each is the contracts rule the web app's member menu uses
 * (spec §6), applied to the rows as the server read them, so the menu and the API never disagree.
 */

export interface MemberActor {
  userId: string;
  role: MemberRole;
}

export type MemberTarget = Pick<MemberRow, 'user_id' | 'role' | 'status' | 'type'>;

function subject(actor: MemberActor, member: MemberTarget): MemberActionInput {
  return {
    actor,
    member: { userId: member.user_id, role: member.role, status: member.status, type: member.type },
  };
}

export const memberPolicy = {
  list: (actor: MemberActor): boolean => hasPermission(actor.role, 'readMember'),
  read: (actor: MemberActor, member: MemberTarget): boolean =>
    canSeeMemberInfo(subject(actor, member)),
  add: (actor: MemberActor): boolean => canAddMember(actor.role),
  resendInvitation: (actor: MemberActor, member: MemberTarget): boolean =>
    canResendInvitation(subject(actor, member)),
  resetPassword: (actor: MemberActor, member: MemberTarget): boolean =>
    canResetMemberPassword(subject(actor, member)),
  changeRole: (actor: MemberActor, member: MemberTarget): boolean =>
    canChangeMemberRole(subject(actor, member)),
  rename: (actor: MemberActor, member: MemberTarget): boolean =>
    canRenameMember(subject(actor, member)),
  /** Disable (to `disabled`) or reactivate (to `active`); every other change of status is refused. */
  changeStatus: (actor: MemberActor, member: MemberTarget, to: MemberStatus): boolean => {
    if (!allowedMemberStatusTransition(member.status, to)) return false;
    if (to === 'disabled') return canDisableMember(subject(actor, member));
    if (to === 'active') return canReactivateMember(subject(actor, member));
    return false;
  },
  remove: (actor: MemberActor, member: MemberTarget): boolean =>
    canRemoveMember(subject(actor, member)),
};
