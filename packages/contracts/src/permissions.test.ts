import { describe, expect, it } from 'vitest';
import { MEMBER_ROLES, MEMBER_STATUSES, type MemberRole, type MemberStatus } from './constants.js';
import {
  allowedMemberStatusTransition,
  canAddAlias,
  canAddMember,
  canChangeMemberRole,
  canChangeCollectionMode,
  canChooseCollaborative,
  canCreateCollection,
  canCreateDownload,
  canCreateFile,
  canCreateTeam,
  canDisableMember,
  canReactivateMember,
  canRemoveMember,
  canRenameMember,
  canRenameTeam,
  canResendInvitation,
  canResetMemberPassword,
  canSeeMemberInfo,
  canSeeTeamDetails,
  hasPermission,
  type MemberActionInput,
  permissionsFor,
  ROLE_CHANGE_TARGETS,
} from './permissions.js';

// The matrix itself is checked cell by cell against its typed table in permission-tables.test.ts.
describe('the §6 matrix', () => {
  it('gives admin the owner list except create team alias and delete team', () => {
    const ownerOnly = permissionsFor('owner').filter((p) => !permissionsFor('admin').includes(p));
    expect(ownerOnly.sort()).toEqual(['createTeamAlias', 'deleteTeam']);
    expect(permissionsFor('admin').every((p) => hasPermission('owner', p))).toBe(true);
  });

  it('lists a role’s permissions', () => {
    expect(permissionsFor('viewer').sort()).toEqual(
      [
        'createDownload',
        'readCollection',
        'readDownload',
        'readFile',
        'readMember',
        'readTeam',
        'updateOwnMember',
      ].sort(),
    );
  });
});

describe('special rules', () => {
  it('creating a team needs the global scope', () => {
    expect(canCreateTeam('global')).toBe(true);
    expect(canCreateTeam('team')).toBe(false);
  });

  it('an uploader creates collections only in a collaborative team', () => {
    for (const teamMode of ['collaborative', 'controlled'] as const) {
      expect(canCreateCollection({ role: 'owner', teamMode })).toBe(true);
      expect(canCreateCollection({ role: 'admin', teamMode })).toBe(true);
      expect(canCreateCollection({ role: 'viewer', teamMode })).toBe(false);
    }
    expect(canCreateCollection({ role: 'uploader', teamMode: 'collaborative' })).toBe(true);
    expect(canCreateCollection({ role: 'uploader', teamMode: 'controlled' })).toBe(false);
  });

  it('an uploader adds files to own or shared collections only', () => {
    const file = (role: MemberRole, createdBy: string, mode: 'owned' | 'collaborative') =>
      canCreateFile({ role, actorUserId: 'me', collection: { createdBy, mode } });
    expect(file('owner', 'other', 'owned')).toBe(true);
    expect(file('admin', 'other', 'owned')).toBe(true);
    expect(file('uploader', 'me', 'owned')).toBe(true);
    expect(file('uploader', 'other', 'collaborative')).toBe(true);
    expect(file('uploader', 'other', 'owned')).toBe(false);
    expect(file('viewer', 'me', 'collaborative')).toBe(false);
  });

  it('an uploader cannot choose collaborative', () => {
    expect(canChooseCollaborative('owner')).toBe(true);
    expect(canChooseCollaborative('admin')).toBe(true);
    expect(canChooseCollaborative('uploader')).toBe(false);
    expect(canChooseCollaborative('viewer')).toBe(false);
  });

  it('only owners and admins switch a collection between shared and private', () => {
    // Typed from the rule, not derived: managers choose the mode, uploaders never.
    const truth: Record<MemberRole, boolean> = {
      owner: true,
      admin: true,
      uploader: false,
      viewer: false,
    };
    for (const role of MEMBER_ROLES) expect(canChangeCollectionMode(role)).toBe(truth[role]);
  });

  it('downloads need createDownload', () => {
    expect(MEMBER_ROLES.filter((role) => canCreateDownload(role))).toEqual([
      'owner',
      'admin',
      'viewer',
    ]);
  });

  it('header menu: details, rename, add alias', () => {
    expect(MEMBER_ROLES.filter((role) => canSeeTeamDetails(role))).toEqual([...MEMBER_ROLES]);
    expect(MEMBER_ROLES.filter((role) => canRenameTeam(role))).toEqual(['owner', 'admin']);
    expect(MEMBER_ROLES.filter((role) => canAddAlias(role))).toEqual(['owner']);
  });

  it('the add-member button needs createMember', () => {
    expect(MEMBER_ROLES.filter((role) => canAddMember(role))).toEqual(['owner', 'admin']);
  });
});

describe('member menu', () => {
  /** An admin looking at an active, non-internal uploader: every guarded action is open. */
  const base: MemberActionInput = {
    actor: { userId: 'actor', role: 'admin' },
    member: { userId: 'member', role: 'uploader', status: 'active', type: 'standard' },
  };
  const withActor = (role: MemberRole): MemberActionInput => ({
    ...base,
    actor: { ...base.actor, role },
  });
  const withMember = (member: Partial<MemberActionInput['member']>): MemberActionInput => ({
    ...base,
    member: { ...base.member, ...member },
  });
  const self: MemberActionInput = withMember({ userId: 'actor', role: 'admin' });
  const statuses = (rule: (input: MemberActionInput) => boolean): MemberStatus[] =>
    MEMBER_STATUSES.filter((status) => rule(withMember({ status })));

  it('info needs readMember, which every role has', () => {
    for (const role of MEMBER_ROLES) expect(canSeeMemberInfo(withActor(role))).toBe(true);
  });

  it('reset password: updateAnyMember, internal members only', () => {
    expect(canResetMemberPassword(withMember({ type: 'internal' }))).toBe(true);
    expect(canResetMemberPassword(withMember({ type: 'standard' }))).toBe(false);
    expect(
      canResetMemberPassword({
        ...withActor('uploader'),
        member: { ...base.member, type: 'internal' },
      }),
    ).toBe(false);
  });

  it('resend invitation: updateAnyMember, status invited', () => {
    expect(statuses(canResendInvitation)).toEqual(['invited']);
    expect(
      canResendInvitation({
        ...withActor('viewer'),
        member: { ...base.member, status: 'invited' },
      }),
    ).toBe(false);
  });

  it('change role: updateAnyMember, not oneself, not the owner, active, not internal', () => {
    expect(canChangeMemberRole(base)).toBe(true);
    expect(canChangeMemberRole(withActor('owner'))).toBe(true);
    expect(canChangeMemberRole(withActor('uploader'))).toBe(false);
    expect(canChangeMemberRole(withActor('viewer'))).toBe(false);
    expect(canChangeMemberRole(self)).toBe(false);
    expect(canChangeMemberRole(withMember({ role: 'owner' }))).toBe(false);
    expect(canChangeMemberRole(withMember({ type: 'internal' }))).toBe(false);
    expect(statuses(canChangeMemberRole)).toEqual(['active']);
  });

  it('disable: updateAnyMember, not oneself, not the owner, active', () => {
    expect(canDisableMember(base)).toBe(true);
    expect(canDisableMember(withMember({ type: 'internal' }))).toBe(true);
    expect(canDisableMember(withActor('uploader'))).toBe(false);
    expect(canDisableMember(self)).toBe(false);
    expect(canDisableMember(withMember({ role: 'owner' }))).toBe(false);
    expect(statuses(canDisableMember)).toEqual(['active']);
  });

  it('reactivate: updateAnyMember, not oneself, not the owner, disabled or banned', () => {
    expect(statuses(canReactivateMember)).toEqual(['banned', 'disabled']);
    const disabled = (input: MemberActionInput): MemberActionInput => ({
      ...input,
      member: { ...input.member, status: 'disabled' },
    });
    expect(canReactivateMember(disabled(withActor('viewer')))).toBe(false);
    expect(canReactivateMember(disabled(self))).toBe(false);
    expect(canReactivateMember(disabled(withMember({ role: 'owner' })))).toBe(false);
  });

  it('rename: updateAnyMember for oneself or a non-owner, updateOwnMember for oneself', () => {
    expect(canRenameMember(base)).toBe(true);
    expect(canRenameMember(self)).toBe(true);
    expect(canRenameMember(withMember({ role: 'owner' }))).toBe(false);
    const ownerSelf: MemberActionInput = {
      actor: { userId: 'o', role: 'owner' },
      member: { ...base.member, userId: 'o', role: 'owner' },
    };
    expect(canRenameMember(ownerSelf)).toBe(true);
    for (const role of ['uploader', 'viewer'] as const) {
      const own: MemberActionInput = {
        actor: { userId: 'me', role },
        member: { ...base.member, userId: 'me', role },
      };
      expect(canRenameMember(own), role).toBe(true);
      expect(canRenameMember(withActor(role)), role).toBe(false);
    }
  });
});

describe('member changes', () => {
  it('a role change targets admin, uploader or viewer only', () => {
    expect([...ROLE_CHANGE_TARGETS]).toEqual(['admin', 'uploader', 'viewer']);
  });

  it('allows active→disabled and disabled|banned→active, nothing else', () => {
    const allowed = MEMBER_STATUSES.flatMap((from) =>
      MEMBER_STATUSES.filter((to) => allowedMemberStatusTransition(from, to)).map(
        (to) => `${from}→${to}`,
      ),
    );
    expect(allowed.sort()).toEqual(['active→disabled', 'banned→active', 'disabled→active']);
  });
});

describe('canRemoveMember', () => {
  const member = (userId: string, role: 'owner' | 'admin' | 'uploader' | 'viewer') => ({
    userId,
    role,
    status: 'active' as const,
    type: 'standard' as const,
  });
  it('lets owners and admins remove someone else who is not the owner', () => {
    expect(
      canRemoveMember({ actor: { userId: 'a', role: 'owner' }, member: member('b', 'admin') }),
    ).toBe(true);
    expect(
      canRemoveMember({ actor: { userId: 'a', role: 'admin' }, member: member('b', 'viewer') }),
    ).toBe(true);
  });
  it('never removes the owner or oneself, and uploaders and viewers remove nobody', () => {
    expect(
      canRemoveMember({ actor: { userId: 'a', role: 'admin' }, member: member('b', 'owner') }),
    ).toBe(false);
    expect(
      canRemoveMember({ actor: { userId: 'a', role: 'admin' }, member: member('a', 'admin') }),
    ).toBe(false);
    expect(
      canRemoveMember({ actor: { userId: 'a', role: 'uploader' }, member: member('b', 'viewer') }),
    ).toBe(false);
    expect(
      canRemoveMember({ actor: { userId: 'a', role: 'viewer' }, member: member('b', 'uploader') }),
    ).toBe(false);
  });
});
