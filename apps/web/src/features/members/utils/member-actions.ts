import {
  canChangeMemberRole,
  canDisableMember,
  canReactivateMember,
  canRemoveMember,
  canRenameMember,
  canResendInvitation,
  canResetMemberPassword,
  canSeeMemberInfo,
  type MemberActionInput,
} from '@raccolta/contracts';

/** The member menu's entries in the order spec §6 lists them. */
export const MEMBER_ACTIONS = [
  'info',
  'resetPassword',
  'resendInvitation',
  'changeRole',
  'disable',
  'reactivate',
  'rename',
  'remove',
] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

// One policy function of contracts per entry: the server refuses with the same functions.
const RULES: Record<MemberAction, (input: MemberActionInput) => boolean> = {
  info: canSeeMemberInfo,
  resetPassword: canResetMemberPassword,
  resendInvitation: canResendInvitation,
  changeRole: canChangeMemberRole,
  disable: canDisableMember,
  reactivate: canReactivateMember,
  rename: canRenameMember,
  remove: canRemoveMember,
};

export function memberActionsFor(input: MemberActionInput): MemberAction[] {
  return MEMBER_ACTIONS.filter((action) => RULES[action](input));
}
