import type { MemberRole, MemberStatus, MemberType } from '../constants.js';

/*
 * Truth tables of the member menu's rules (spec §6 special rules), typed from the spec, never
 * computed from permissions.ts. Each rule is "who may act on whom" and "on a member in which
 * state", as the spec writes them ("updateAnyMember, not oneself, not the owner, status active,
 * non-internal member"): an action is allowed when both of its tables say yes. Record types make
 * a new role, status or type a compile error here until its answers are typed.
 */

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

/** The member acted on: oneself, the team's owner (someone else), anyone else. */
export const MEMBER_TARGETS = ['self', 'owner', 'other'] as const;
export type MemberTarget = (typeof MEMBER_TARGETS)[number];

export interface MemberActionTable {
  /** By the actor's role and who the member is, for a member in a state the action takes. */
  who: Readonly<Record<MemberRole, Readonly<Record<MemberTarget, boolean>>>>;
  /** By the member's stored status and type, for an actor allowed by `who`. */
  state: Readonly<Record<MemberStatus, Readonly<Record<MemberType, boolean>>>>;
}

const EVERY_STATE = {
  active: { internal: true, standard: true },
  invited: { internal: true, standard: true },
  pending: { internal: true, standard: true },
  rejected: { internal: true, standard: true },
  left: { internal: true, standard: true },
  banned: { internal: true, standard: true },
  disabled: { internal: true, standard: true },
} as const;

export const MEMBER_ACTION_TABLES: Readonly<Record<MemberAction, MemberActionTable>> = {
  // Info needs readMember.
  info: {
    who: {
      owner: { self: true, owner: true, other: true },
      admin: { self: true, owner: true, other: true },
      uploader: { self: true, owner: true, other: true },
      viewer: { self: true, owner: true, other: true },
    },
    state: EVERY_STATE,
  },
  // Reset password needs updateAnyMember, internal members only.
  resetPassword: {
    who: {
      owner: { self: true, owner: true, other: true },
      admin: { self: true, owner: true, other: true },
      uploader: { self: false, owner: false, other: false },
      viewer: { self: false, owner: false, other: false },
    },
    state: {
      active: { internal: true, standard: false },
      invited: { internal: true, standard: false },
      pending: { internal: true, standard: false },
      rejected: { internal: true, standard: false },
      left: { internal: true, standard: false },
      banned: { internal: true, standard: false },
      disabled: { internal: true, standard: false },
    },
  },
  // Resend invitation needs updateAnyMember and status invited.
  resendInvitation: {
    who: {
      owner: { self: true, owner: true, other: true },
      admin: { self: true, owner: true, other: true },
      uploader: { self: false, owner: false, other: false },
      viewer: { self: false, owner: false, other: false },
    },
    state: {
      active: { internal: false, standard: false },
      invited: { internal: true, standard: true },
      pending: { internal: false, standard: false },
      rejected: { internal: false, standard: false },
      left: { internal: false, standard: false },
      banned: { internal: false, standard: false },
      disabled: { internal: false, standard: false },
    },
  },
  // Change role needs updateAnyMember, not oneself, not the owner, status active, non-internal.
  changeRole: {
    who: {
      owner: { self: false, owner: false, other: true },
      admin: { self: false, owner: false, other: true },
      uploader: { self: false, owner: false, other: false },
      viewer: { self: false, owner: false, other: false },
    },
    state: {
      active: { internal: false, standard: true },
      invited: { internal: false, standard: false },
      pending: { internal: false, standard: false },
      rejected: { internal: false, standard: false },
      left: { internal: false, standard: false },
      banned: { internal: false, standard: false },
      disabled: { internal: false, standard: false },
    },
  },
  // Disable needs updateAnyMember, not oneself, not the owner, status active.
  disable: {
    who: {
      owner: { self: false, owner: false, other: true },
      admin: { self: false, owner: false, other: true },
      uploader: { self: false, owner: false, other: false },
      viewer: { self: false, owner: false, other: false },
    },
    state: {
      active: { internal: true, standard: true },
      invited: { internal: false, standard: false },
      pending: { internal: false, standard: false },
      rejected: { internal: false, standard: false },
      left: { internal: false, standard: false },
      banned: { internal: false, standard: false },
      disabled: { internal: false, standard: false },
    },
  },
  // Reactivate needs updateAnyMember, not oneself, not the owner, status disabled or banned.
  reactivate: {
    who: {
      owner: { self: false, owner: false, other: true },
      admin: { self: false, owner: false, other: true },
      uploader: { self: false, owner: false, other: false },
      viewer: { self: false, owner: false, other: false },
    },
    state: {
      active: { internal: false, standard: false },
      invited: { internal: false, standard: false },
      pending: { internal: false, standard: false },
      rejected: { internal: false, standard: false },
      left: { internal: false, standard: false },
      banned: { internal: true, standard: true },
      disabled: { internal: true, standard: true },
    },
  },
  // Rename needs updateAnyMember (oneself, or a non-owner) or updateOwnMember for oneself.
  rename: {
    who: {
      owner: { self: true, owner: false, other: true },
      admin: { self: true, owner: false, other: true },
      uploader: { self: true, owner: false, other: false },
      viewer: { self: true, owner: false, other: false },
    },
    state: EVERY_STATE,
  },
  // Remove needs deleteMember and, like the other actions on someone else, never the owner (a
  // team always keeps its owner) and never oneself.
  remove: {
    who: {
      owner: { self: false, owner: false, other: true },
      admin: { self: false, owner: false, other: true },
      uploader: { self: false, owner: false, other: false },
      viewer: { self: false, owner: false, other: false },
    },
    state: EVERY_STATE,
  },
};

/** The tables' answer for one action on one member. */
export function memberRule(
  action: MemberAction,
  at: { role: MemberRole; target: MemberTarget; status: MemberStatus; type: MemberType },
): boolean {
  const table = MEMBER_ACTION_TABLES[action];
  return table.who[at.role][at.target] && table.state[at.status][at.type];
}
