import type { MemberPatch, MemberRole, MemberStatus } from '@raccolta/contracts';
import { applyPatch, patchField, type PatchFields } from '../http/json-patch.js';
import { memberPolicy, type MemberActor } from './members.policy.js';
import type { MemberChanges, MemberRow } from './members.repository.js';

export interface PlannedPatch {
  changes: MemberChanges;
  /** Set when the nickname changes: the caller checks it is free within the team. */
  nickname?: string;
}

/**
 * Checks every operation in order against the member as the earlier operations leave it (RFC
 * 6902, http/json-patch.ts), each with its §6 rule (403 when refused), and returns the changes to
 * write. Throws on the first refusal, before anything is written.
 */
export function planMemberPatch(
  actor: MemberActor,
  member: MemberRow,
  ops: MemberPatch,
): PlannedPatch {
  const fields: PatchFields<MemberRow> = {
    '/role': patchField<MemberRow, MemberRole>({
      get: (s) => s.role,
      set: (s, role) => ({ ...s, role }),
      allowed: (s) => memberPolicy.changeRole(actor, s),
    }),
    '/status': patchField<MemberRow, MemberStatus>({
      get: (s) => s.status,
      set: (s, status) => ({ ...s, status }),
      allowed: (s, to) => memberPolicy.changeStatus(actor, s, to),
    }),
    '/nickname': patchField<MemberRow, string | null>({
      get: (s) => s.nickname,
      set: (s, nickname) => ({ ...s, nickname }),
      allowed: (s) => memberPolicy.rename(actor, s),
    }),
  };
  const state = applyPatch(member, ops, fields);
  const planned: PlannedPatch = { changes: {} };
  if (state.role !== member.role) planned.changes.role = state.role;
  if (state.status !== member.status) planned.changes.status = state.status;
  if (state.nickname !== member.nickname && state.nickname !== null) {
    planned.changes.nickname = state.nickname;
    planned.nickname = state.nickname;
  }
  return planned;
}
