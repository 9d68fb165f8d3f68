/*
 * The member and invitation endpoints of the authorisation matrix. Each names the §6 truth-table
 * entry that decides it (contracts' testing tables, typed from the spec), never the rule under
 * test: a rule that goes wrong in contracts or the API changes the answer, not the expectation.
 */

import { MEMBER_ROLES, type MemberActionInput, type MemberRole } from '@raccolta/contracts';
import {
  memberRule,
  ROLE_RULE_TABLE,
  specAllows,
  type MemberAction,
  type MemberTarget,
} from '@raccolta/contracts/testing';
import type { UserRow } from '../../src/users/users.repository.js';
import type { Caller, World } from './world.js';

type Member = MemberActionInput['member'];
type Actor = MemberActionInput['actor'];

/** Who an endpoint acts on: the row, and the member as the tables see them (stored status, type). */
type TargetOf = (
  world: World,
  caller: Caller,
) => { user: UserRow; member: Member; target: MemberTarget };

export interface Endpoint {
  name: string;
  /** The tables' answer for a role; its outcome is `ok` when allowed, else `refused`. */
  allowed: (actor: Actor, member: Member, target: MemberTarget) => boolean;
  ok: number;
  /** 403 unless the action's refusal carries a more telling code. */
  refused?: (actor: Actor) => number;
  /** For endpoints that need no membership: the answer by caller alone, in place of 401/404/403. */
  byCaller?: (caller: Caller) => number;
  target: TargetOf;
  request: (world: World, target: UserRow) => { method: string; url: string; payload?: unknown };
}

const fixed =
  (
    pick: (w: World) => UserRow,
    role: MemberRole,
    status: Member['status'] = 'active',
    target: Exclude<MemberTarget, 'self'> = 'other',
  ) =>
  (world: World, caller: Caller): ReturnType<TargetOf> => {
    const user = pick(world);
    // The owner acting on the owner acts on themselves.
    const self = caller !== 'anonymous' && world.users[caller].id === user.id;
    return {
      user,
      target: self ? 'self' : target,
      member: { userId: user.id, role, status, type: user.kind },
    };
  };
const other = fixed((w) => w.target, 'uploader');
const owner = fixed((w) => w.users.owner, 'owner', 'active', 'owner');
const internal = fixed((w) => w.internal, 'uploader');
const invitee = fixed((w) => w.invitee, 'viewer', 'invited');
const disabledOne = fixed((w) => w.disabledTarget, 'uploader', 'disabled');
const ROLES: readonly string[] = MEMBER_ROLES;
const isRole = (caller: Caller): caller is MemberRole => ROLES.includes(caller);
/** The caller's own row; callers without an active one are refused before any rule applies. */
const self: TargetOf = (world, caller) => {
  const user = caller === 'anonymous' ? world.target : world.users[caller];
  const role = isRole(caller) ? caller : 'admin';
  return {
    user,
    target: 'self',
    member: { userId: user.id, role, status: 'active', type: 'standard' },
  };
};

const members = (w: World) => `/teams/${w.team.id}/members`;
const patch = (path: string, value: string) => (w: World, t: UserRow) => ({
  method: 'PATCH',
  url: `${members(w)}/${t.id}`,
  payload: [{ op: 'replace', path, value }],
});
/** The member tables' answer for this action on the endpoint's member. */
const rule =
  (action: MemberAction) =>
  (a: Actor, m: Member, target: MemberTarget): boolean =>
    memberRule(action, { role: a.role, target, status: m.status, type: m.type });

export const ENDPOINTS: Endpoint[] = [
  {
    name: 'GET members',
    allowed: (a) => specAllows('readMember', a.role),
    ok: 200,
    target: other,
    request: (w) => ({ method: 'GET', url: members(w) }),
  },
  {
    name: 'GET members by alias',
    allowed: (a) => specAllows('readMember', a.role),
    ok: 200,
    target: other,
    request: (w) => ({ method: 'GET', url: `/teams/${w.team.alias ?? ''}/members?prefix=t` }),
  },
  {
    name: 'GET member',
    allowed: rule('info'),
    ok: 200,
    target: other,
    request: (w, t) => ({ method: 'GET', url: `${members(w)}/${t.id}` }),
  },
  {
    name: 'POST member (invite)',
    allowed: (a) => ROLE_RULE_TABLE.addMember[a.role],
    ok: 201,
    target: other,
    request: (w) => ({
      method: 'POST',
      url: members(w),
      payload: {
        email: `new.${w.team.id}@example.com`,
        nickname: 'Newcomer',
        role: 'viewer',
        locale: 'en',
      },
    }),
  },
  {
    name: 'POST member (internal)',
    allowed: (a) => ROLE_RULE_TABLE.addMember[a.role],
    ok: 201,
    target: other,
    request: (w) => ({
      method: 'POST',
      url: members(w),
      payload: { username: 'field.worker', role: 'uploader', locale: 'it' },
    }),
  },
  {
    name: 'PATCH role of another member',
    allowed: rule('changeRole'),
    ok: 200,
    target: other,
    request: patch('/role', 'viewer'),
  },
  {
    name: 'PATCH role of the owner',
    allowed: rule('changeRole'),
    ok: 200,
    target: owner,
    request: patch('/role', 'admin'),
  },
  {
    name: 'PATCH role of an internal member',
    allowed: rule('changeRole'),
    ok: 200,
    target: internal,
    request: patch('/role', 'viewer'),
  },
  {
    name: 'PATCH own role',
    allowed: rule('changeRole'),
    ok: 200,
    target: self,
    request: patch('/role', 'viewer'),
  },
  {
    name: 'PATCH disable another member',
    allowed: rule('disable'),
    ok: 200,
    target: other,
    request: patch('/status', 'disabled'),
  },
  {
    name: 'PATCH disable oneself',
    allowed: rule('disable'),
    ok: 200,
    target: self,
    request: patch('/status', 'disabled'),
  },
  {
    name: 'PATCH disable the owner',
    allowed: rule('disable'),
    ok: 200,
    target: owner,
    request: patch('/status', 'disabled'),
  },
  {
    name: 'PATCH reactivate a disabled member',
    allowed: rule('reactivate'),
    ok: 200,
    target: disabledOne,
    request: patch('/status', 'active'),
  },
  {
    name: 'PATCH rename another member',
    allowed: rule('rename'),
    ok: 200,
    target: other,
    request: patch('/nickname', 'Renamed'),
  },
  {
    name: 'PATCH rename oneself',
    allowed: rule('rename'),
    ok: 200,
    target: self,
    request: patch('/nickname', 'Myself'),
  },
  {
    name: 'PATCH rename the owner',
    allowed: rule('rename'),
    ok: 200,
    target: owner,
    request: patch('/nickname', 'Boss'),
  },
  {
    name: 'POST resend an invitation',
    allowed: rule('resendInvitation'),
    ok: 200,
    target: invitee,
    request: (w, t) => ({
      method: 'POST',
      url: `/teams/${w.team.id}/invitations/resend`,
      payload: { userId: t.id },
    }),
  },
  {
    name: 'POST resend to an active member',
    allowed: rule('resendInvitation'),
    ok: 200,
    target: other,
    request: (w, t) => ({
      method: 'POST',
      url: `/teams/${w.team.id}/invitations/resend`,
      payload: { userId: t.id },
    }),
  },
  {
    name: 'POST new password of an internal member',
    allowed: rule('resetPassword'),
    ok: 200,
    target: internal,
    request: (w, t) => ({ method: 'POST', url: `${members(w)}/${t.id}/new-password`, payload: {} }),
  },
  {
    name: 'POST new password of a standard member',
    allowed: rule('resetPassword'),
    ok: 200,
    refused: (a) => (specAllows('updateAnyMember', a.role) ? 400 : 403),
    target: other,
    request: (w, t) => ({ method: 'POST', url: `${members(w)}/${t.id}/new-password`, payload: {} }),
  },
  {
    name: 'DELETE another member',
    allowed: rule('remove'),
    ok: 204,
    target: other,
    request: (w, t) => ({ method: 'DELETE', url: `${members(w)}/${t.id}` }),
  },
  {
    name: 'DELETE the owner',
    allowed: rule('remove'),
    ok: 204,
    target: owner,
    request: (w, t) => ({ method: 'DELETE', url: `${members(w)}/${t.id}` }),
  },
  {
    name: 'DELETE oneself',
    allowed: rule('remove'),
    ok: 204,
    target: self,
    request: (w, t) => ({ method: 'DELETE', url: `${members(w)}/${t.id}` }),
  },
  // Invitations are answered with the link's token, not a role: whoever holds it may reject;
  // only the invitee may accept (anyone else signed in is emailMismatch), and the invitee not
  // signed in is asked to complete the account the invitation made.
  {
    name: 'POST accept an invitation of someone else',
    allowed: () => false,
    ok: 200,
    target: invitee,
    byCaller: (c) => (c === 'anonymous' ? 409 : 403),
    request: (w) => ({
      method: 'POST',
      url: `/teams/${w.team.id}/invitations/accept`,
      payload: { token: w.inviteToken },
    }),
  },
  {
    name: 'POST reject an invitation',
    allowed: () => true,
    ok: 200,
    target: invitee,
    byCaller: () => 200,
    request: (w) => ({
      method: 'POST',
      url: `/teams/${w.team.alias ?? ''}/invitations/reject`,
      payload: { token: w.inviteToken },
    }),
  },
];

export function expectedStatus(endpoint: Endpoint, caller: Caller, world: World): number {
  if (endpoint.byCaller) return endpoint.byCaller(caller);
  if (caller === 'anonymous') return 401;
  // Disabled, not a member, or a member of another team only: this team does not exist for them.
  if (!isRole(caller)) return 404;
  const actor = { userId: world.users[caller].id, role: caller };
  const { member, target } = endpoint.target(world, caller);
  if (endpoint.allowed(actor, member, target)) return endpoint.ok;
  return endpoint.refused?.(actor) ?? 403;
}
