import { type MemberPatch, type MemberStatus } from '@raccolta/contracts';
import { AppError } from '../errors/app-error.js';
import { authorize } from '../access/access.js';
import { memberPolicy, type MemberActor, type MemberTarget } from './members.policy.js';
import type { MemberChanges, MemberRow } from './members.repository.js';

interface MemberState extends MemberTarget {
  nickname: string | null;
}

export interface PlannedPatch {
  changes: MemberChanges;
  /** Set when the nickname changes: the caller checks it is free within the team. */
  nickname?: string;
}

/**
 * Checks every operation in order against the member as the earlier operations leave it (RFC
 * 6902 semantics), each with its §6 rule, and returns the changes to write. Throws on the first
 * refusal, before anything is written.
 */
export function planMemberPatch(
  actor: MemberActor,
  member: MemberRow,
  ops: MemberPatch,
): PlannedPatch {
  const state: MemberState = { ...member };
  const planned: PlannedPatch = { changes: {} };
  for (const o of ops) {
    const field = o.path.slice(1) as 'role' | 'nickname' | 'status';
    if (o.op === 'test') {
      if (state[field] !== o.value) {
        throw new AppError('invalidInput', { message: `test failed at ${o.path}` });
      }
      continue;
    }
    switch (o.path) {
      case '/role':
        authorize(memberPolicy.changeRole(actor, state));
        state.role = o.value;
        planned.changes.role = o.value;
        break;
      case '/status':
        authorize(memberPolicy.changeStatus(actor, state, o.value));
        state.status = o.value satisfies MemberStatus;
        planned.changes.status = o.value;
        break;
      case '/nickname':
        authorize(memberPolicy.rename(actor, state));
        state.nickname = o.value;
        planned.changes.nickname = o.value;
        planned.nickname = o.value;
        break;
    }
  }
  return planned;
}
