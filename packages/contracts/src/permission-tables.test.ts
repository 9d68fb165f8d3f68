import { describe, expect, it } from 'vitest';
import {
  ASSIGNABLE_ROLES,
  COLLECTION_MODES,
  MEMBER_ROLES,
  MEMBER_STATUSES,
  MEMBER_TYPES,
  TEAM_MODES,
  type CollectionMode,
  type MemberRole,
} from './constants.js';
import * as permissions from './permissions.js';
import {
  canAddAlias,
  canAddMember,
  canChangeCollectionMode,
  canChangeMemberRole,
  canChooseCollaborative,
  canCreateCollection,
  canCreateDownload,
  canCreateFile,
  canDeleteCollection,
  canDeleteFile,
  canDisableMember,
  canDownloadFile,
  canLookupFiles,
  canReactivateMember,
  canRemoveMember,
  canRenameMember,
  canRenameTeam,
  canResendInvitation,
  canResetMemberPassword,
  canSeeCollection,
  canSeeMemberInfo,
  canSeeTeamDetails,
  canManageUploadLinks,
  canSendReminder,
  canUpdateCollection,
  CONDITIONAL_PERMISSIONS,
  hasPermission,
  type MemberActionInput,
  PERMISSIONS,
} from './permissions.js';
import {
  COLLECTION_ACCESS_TABLE,
  COLLECTION_ACTIONS,
  CREATE_COLLECTION_TABLE,
  MEMBER_ACTION_TABLES,
  MEMBER_ACTIONS,
  MEMBER_TARGETS,
  memberRule,
  ROLE_RULE_TABLE,
  ROLE_RULES,
  SPEC_MATRIX,
  type CollectionAction,
  type MemberAction,
  type MemberTarget,
  type RoleRule,
} from './testing/index.js';
import * as trash from './trash.js';
import { canManageTrash } from './trash.js';

/*
 * The rules of permissions.ts against the truth tables of ./testing, typed from spec §6. The
 * expectations come from the tables only; the rules are only ever the thing checked.
 */

const BOOLEANS = [true, false] as const;

/** Every key of a table must be there exactly once: none missing, none twice, none unknown. */
function expectCoverage(keys: string[], expected: string[]) {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
  expect(
    [...counts].filter(([, n]) => n > 1).map(([key]) => key),
    'typed twice',
  ).toEqual([]);
  expect(
    expected.filter((key) => !counts.has(key)),
    'not typed',
  ).toEqual([]);
  expect(
    keys.filter((key) => !expected.includes(key)),
    'not a combination',
  ).toEqual([]);
}

describe('the §6 matrix table', () => {
  it('types every permission once, with a cell for every role', () => {
    expectCoverage(
      SPEC_MATRIX.flatMap((row) => row.permissions),
      [...PERMISSIONS],
    );
    for (const row of SPEC_MATRIX) {
      const roles = Object.keys(row).filter((key) => key !== 'permissions');
      expect(roles.sort(), row.permissions.join()).toEqual([...MEMBER_ROLES].sort());
    }
  });

  for (const row of SPEC_MATRIX) {
    for (const permission of row.permissions) {
      it(`${permission} agrees with the table`, () => {
        for (const role of MEMBER_ROLES) {
          expect(hasPermission(role, permission), role).toBe(row[role] !== 'no');
          const conditional = CONDITIONAL_PERMISSIONS[permission]?.includes(role) ?? false;
          expect(conditional, `${role} conditional`).toBe(row[role] === 'conditional');
        }
      });
    }
  }
});

describe('the collection access table', () => {
  const key = (role: MemberRole, own: boolean, mode: CollectionMode, action: CollectionAction) =>
    `${role} ${own ? 'own' : 'other'} ${mode} ${action}`;

  it('types every role, ownership, collection mode and action once', () => {
    const expected = MEMBER_ROLES.flatMap((role) =>
      BOOLEANS.flatMap((own) =>
        COLLECTION_MODES.flatMap((mode) =>
          COLLECTION_ACTIONS.map((action) => key(role, own, mode, action)),
        ),
      ),
    );
    expectCoverage(
      COLLECTION_ACCESS_TABLE.map((r) => key(r.role, r.own, r.mode, r.action)),
      expected,
    );
  });

  /**
   * The rule of each action. Rules about one collection take it whole; those that take a role
   * alone apply to a collection one sees (one not seen is 404 before any rule, as in the API).
   */
  const RULES: Record<CollectionAction, (input: permissions.CollectionAccessInput) => boolean> = {
    see: canSeeCollection,
    update: canUpdateCollection,
    addFile: canCreateFile,
    lookupFiles: canLookupFiles,
    changeMode: (input) => canSeeCollection(input) && canChangeCollectionMode(input.role),
    delete: (input) => canSeeCollection(input) && canDeleteCollection(input.role),
    readFiles: (input) => canSeeCollection(input) && hasPermission(input.role, 'readFile'),
    downloadFile: (input) => canSeeCollection(input) && canDownloadFile(input.role),
    deleteFile: (input) => canSeeCollection(input) && canDeleteFile(input.role),
    manageLinks: (input) => canSeeCollection(input) && canManageUploadLinks(input),
  };

  for (const action of COLLECTION_ACTIONS) {
    it(`${action} agrees with every row`, () => {
      const rows = COLLECTION_ACCESS_TABLE.filter((row) => row.action === action);
      expect(rows).toHaveLength(MEMBER_ROLES.length * BOOLEANS.length * COLLECTION_MODES.length);
      for (const row of rows) {
        const input = {
          role: row.role,
          actorUserId: 'me',
          collection: { createdBy: row.own ? 'me' : 'someone else', mode: row.mode },
        };
        expect(RULES[action](input), key(row.role, row.own, row.mode, action)).toBe(row.allowed);
      }
    });
  }
});

describe('the create-collection table', () => {
  it('types every role, team mode and collection mode once', () => {
    const expected = MEMBER_ROLES.flatMap((role) =>
      TEAM_MODES.flatMap((teamMode) =>
        COLLECTION_MODES.map((mode) => `${role} ${teamMode} ${mode}`),
      ),
    );
    expectCoverage(
      CREATE_COLLECTION_TABLE.map((r) => `${r.role} ${r.teamMode} ${r.mode}`),
      expected,
    );
  });

  it('agrees with canCreateCollection and canChooseCollaborative', () => {
    for (const row of CREATE_COLLECTION_TABLE) {
      // The create call: the role may create here, and may choose shared if it asks for shared.
      const allowed =
        canCreateCollection({ role: row.role, teamMode: row.teamMode }) &&
        (row.mode === 'owned' || canChooseCollaborative(row.role));
      expect(allowed, `${row.role} ${row.teamMode} ${row.mode}`).toBe(row.allowed);
    }
  });
});

describe('the role rule table', () => {
  const RULES: Record<RoleRule, (role: MemberRole) => boolean> = {
    createDownload: canCreateDownload,
    downloadFile: canDownloadFile,
    chooseCollaborative: canChooseCollaborative,
    changeCollectionMode: canChangeCollectionMode,
    deleteCollection: canDeleteCollection,
    deleteFile: canDeleteFile,
    manageTrash: canManageTrash,
    seeTeamDetails: canSeeTeamDetails,
    renameTeam: canRenameTeam,
    addAlias: canAddAlias,
    addMember: canAddMember,
    sendReminder: canSendReminder,
  };

  it('types every rule for every role', () => {
    expectCoverage(Object.keys(ROLE_RULE_TABLE), [...ROLE_RULES]);
    for (const rule of ROLE_RULES)
      expect(Object.keys(ROLE_RULE_TABLE[rule]).sort(), rule).toEqual([...MEMBER_ROLES].sort());
  });

  for (const rule of ROLE_RULES) {
    it(`${rule} agrees with the table`, () => {
      for (const role of MEMBER_ROLES)
        expect(RULES[rule](role), role).toBe(ROLE_RULE_TABLE[rule][role]);
    });
  }
});

describe('the member action tables', () => {
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

  it('types every action for every role and target, status and type', () => {
    expectCoverage(Object.keys(MEMBER_ACTION_TABLES), [...MEMBER_ACTIONS]);
    for (const action of MEMBER_ACTIONS) {
      const { who, state } = MEMBER_ACTION_TABLES[action];
      expectCoverage(
        Object.entries(who).flatMap(([role, targets]) =>
          Object.keys(targets).map((target) => `${role} ${target}`),
        ),
        MEMBER_ROLES.flatMap((role) => MEMBER_TARGETS.map((target) => `${role} ${target}`)),
      );
      expectCoverage(
        Object.entries(state).flatMap(([status, types]) =>
          Object.keys(types).map((type) => `${status} ${type}`),
        ),
        MEMBER_STATUSES.flatMap((status) => MEMBER_TYPES.map((type) => `${status} ${type}`)),
      );
    }
  });

  /** The member a target names, as the rules see it; `other` is any role but owner. */
  const members = (
    role: MemberRole,
    target: MemberTarget,
  ): { userId: string; role: MemberRole }[] => {
    if (target === 'self') return [{ userId: 'me', role }];
    if (target === 'owner') return [{ userId: 'boss', role: 'owner' }];
    return ASSIGNABLE_ROLES.map((other) => ({ userId: 'someone', role: other }));
  };

  for (const action of MEMBER_ACTIONS) {
    it(`${action} agrees with every combination`, () => {
      for (const role of MEMBER_ROLES)
        for (const target of MEMBER_TARGETS)
          for (const status of MEMBER_STATUSES)
            for (const type of MEMBER_TYPES) {
              const expected = memberRule(action, { role, target, status, type });
              for (const member of members(role, target)) {
                const input = {
                  actor: { userId: 'me', role },
                  member: { ...member, status, type },
                };
                const label = `${role} → ${target} (${member.role}) ${status} ${type}`;
                expect(RULES[action](input), label).toBe(expected);
              }
            }
    });
  }
});

describe('every rule has a table', () => {
  /** canCreateTeam takes a scope, not a role: permissions.test.ts checks both scopes. */
  const ELSEWHERE = ['canCreateTeam'];
  const TABLED = [
    'canSeeCollection',
    'canUpdateCollection',
    'canCreateFile',
    'canLookupFiles',
    'canCreateCollection',
    'canManageUploadLinks',
    ...Object.values({
      info: 'canSeeMemberInfo',
      resetPassword: 'canResetMemberPassword',
      resendInvitation: 'canResendInvitation',
      changeRole: 'canChangeMemberRole',
      disable: 'canDisableMember',
      reactivate: 'canReactivateMember',
      rename: 'canRenameMember',
      remove: 'canRemoveMember',
    } satisfies Record<MemberAction, string>),
    ...Object.values({
      createDownload: 'canCreateDownload',
      downloadFile: 'canDownloadFile',
      chooseCollaborative: 'canChooseCollaborative',
      changeCollectionMode: 'canChangeCollectionMode',
      deleteCollection: 'canDeleteCollection',
      deleteFile: 'canDeleteFile',
      manageTrash: 'canManageTrash',
      seeTeamDetails: 'canSeeTeamDetails',
      renameTeam: 'canRenameTeam',
      addAlias: 'canAddAlias',
      addMember: 'canAddMember',
      sendReminder: 'canSendReminder',
    } satisfies Record<RoleRule, string>),
  ];

  it('lists every can… function of the rules', () => {
    const rules = [...Object.keys(permissions), ...Object.keys(trash)].filter((name) =>
      /^can[A-Z]/.test(name),
    );
    expectCoverage(rules, [...TABLED, ...ELSEWHERE]);
  });
});
