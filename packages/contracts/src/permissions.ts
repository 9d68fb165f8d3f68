import {
  ASSIGNABLE_ROLES,
  CREATE_TEAM_SCOPE,
  type CollectionMode,
  type MemberRole,
  type MemberStatus,
  type MemberType,
  type TeamMode,
  type UserScope,
} from './constants.js';

/**
 * The role/permission matrix of spec §6 and its special rules. The server enforces with these
 * functions and the web app hides menu entries with the same ones, so both always agree.
 */

const ALL = ['owner', 'admin', 'uploader', 'viewer'] as const satisfies readonly MemberRole[];
const MANAGERS = ['owner', 'admin'] as const satisfies readonly MemberRole[];

/**
 * Which roles hold each permission. The uploader's createCollection and createFile are
 * conditional (see CONDITIONAL_PERMISSIONS): holding them means "may, when the special rule
 * allows", so decide those actions with canCreateCollection and canCreateFile.
 */
export const PERMISSION_ROLES = {
  createCollection: ['owner', 'admin', 'uploader'],
  createDownload: ['owner', 'admin', 'viewer'],
  createFile: ['owner', 'admin', 'uploader'],
  createMember: MANAGERS,
  createTeamAlias: ['owner'],
  readCollection: ALL,
  readFile: ALL,
  readMember: ALL,
  readTeam: ALL,
  readDownload: ['owner', 'admin', 'viewer'],
  updateTeam: MANAGERS,
  updateAnyMember: MANAGERS,
  updateOwnMember: ALL,
  updateFile: MANAGERS,
  updateCollection: ['owner', 'admin', 'uploader'],
  deleteTeam: ['owner'],
  deleteCollection: MANAGERS,
  deleteFile: MANAGERS,
  deleteMember: MANAGERS,
} as const satisfies Record<string, readonly MemberRole[]>;

export type Permission = keyof typeof PERMISSION_ROLES;

export const PERMISSIONS = Object.keys(PERMISSION_ROLES) as Permission[];

/** Cells of the matrix that read "conditional" or "only when" rather than a plain yes. */
export const CONDITIONAL_PERMISSIONS: Readonly<Partial<Record<Permission, readonly MemberRole[]>>> =
  {
    createCollection: ['uploader'],
    createFile: ['uploader'],
  };

export function hasPermission(role: MemberRole, permission: Permission): boolean {
  const roles: readonly MemberRole[] = PERMISSION_ROLES[permission];
  return roles.includes(role);
}

export function permissionsFor(role: MemberRole): Permission[] {
  return PERMISSIONS.filter((permission) => hasPermission(role, permission));
}

// Special rules
export function canCreateTeam(userScope: UserScope): boolean {
  return userScope === CREATE_TEAM_SCOPE;
}

export function canCreateCollection(input: { role: MemberRole; teamMode: TeamMode }): boolean {
  if (!hasPermission(input.role, 'createCollection')) return false;
  return input.role !== 'uploader' || input.teamMode === 'collaborative';
}

export function canCreateFile(input: {
  role: MemberRole;
  actorUserId: string;
  collection: { createdBy: string; mode: CollectionMode };
}): boolean {
  if (!hasPermission(input.role, 'createFile')) return false;
  if (input.role !== 'uploader') return true;
  return (
    input.collection.createdBy === input.actorUserId || input.collection.mode === 'collaborative'
  );
}

/**
 * Asking whether a collection already holds files of given SHA-256 digests (the duplicate check
 * before an upload): those who may upload into it, who all see its files too. A viewer, who
 * cannot upload, has nothing to check, and nobody learns of a collection's contents this way
 * without being able to read them.
 */
export function canLookupFiles(input: {
  role: MemberRole;
  actorUserId: string;
  collection: { createdBy: string; mode: CollectionMode };
}): boolean {
  return canCreateFile(input) && hasPermission(input.role, 'readFile');
}

/**
 * Whether the create-collection dialog lets this role make the collection collaborative (shared
 * with every contributor). For those who may, shared is the default choice: a collection a
 * manager creates is one contributors can upload into unless the manager chose otherwise.
 */
export function canChooseCollaborative(role: MemberRole): boolean {
  return hasPermission(role, 'createCollection') && role !== 'uploader';
}

/**
 * Switching a collection between shared and private afterwards (a PATCH of /mode): the roles
 * that choose the mode when creating (owner, admin) on any collection of the team; never an
 * uploader, who cannot choose it when creating either (§6).
 */
export function canChangeCollectionMode(role: MemberRole): boolean {
  return canChooseCollaborative(role) && hasPermission(role, 'updateCollection');
}

export function canCreateDownload(role: MemberRole): boolean {
  return hasPermission(role, 'createDownload');
}

// Collections and files
export interface CollectionAccessInput {
  role: MemberRole;
  actorUserId: string;
  collection: { createdBy: string; mode: CollectionMode };
}

/**
 * An uploader sees the collections it created and the collaborative (shared) ones; every other
 * role sees all of the team's. A collection one cannot see is answered 404, like a foreign one.
 */
export function canSeeCollection({
  role,
  actorUserId,
  collection,
}: CollectionAccessInput): boolean {
  if (!hasPermission(role, 'readCollection')) return false;
  return (
    role !== 'uploader' ||
    collection.createdBy === actorUserId ||
    collection.mode === 'collaborative'
  );
}

/** Rename, describe, tag: managers on any collection, an uploader on the ones it created. */
export function canUpdateCollection({
  role,
  actorUserId,
  collection,
}: CollectionAccessInput): boolean {
  if (!hasPermission(role, 'updateCollection')) return false;
  return role !== 'uploader' || collection.createdBy === actorUserId;
}

/**
 * Upload links for guests (issue #36): owners and admins on any collection of the team, and the
 * collection's creator where §6 lets them manage it (an uploader on the ones it created, as for
 * canUpdateCollection). A viewer never, not even on a collection made while an uploader.
 */
export function canManageUploadLinks({
  role,
  actorUserId,
  collection,
}: CollectionAccessInput): boolean {
  if (hasPermission(role, 'updateAnyMember')) return true;
  return (
    hasPermission(role, 'updateCollection') &&
    hasPermission(role, 'createFile') &&
    collection.createdBy === actorUserId
  );
}

export function canDeleteCollection(role: MemberRole): boolean {
  return hasPermission(role, 'deleteCollection');
}

/** "Send a reminder now" from a collection's menu (issue #36): owners and admins. */
export function canSendReminder(role: MemberRole): boolean {
  return (MANAGERS as readonly MemberRole[]).includes(role);
}

export function canDeleteFile(role: MemberRole): boolean {
  return hasPermission(role, 'deleteFile');
}

/** Single-file downloads follow the preview's download button: createDownload (spec §6). */
export function canDownloadFile(role: MemberRole): boolean {
  return hasPermission(role, 'createDownload');
}

// Header menu
export function canSeeTeamDetails(role: MemberRole): boolean {
  return hasPermission(role, 'readTeam');
}

export function canRenameTeam(role: MemberRole): boolean {
  return hasPermission(role, 'updateTeam');
}

export function canAddAlias(role: MemberRole): boolean {
  return hasPermission(role, 'createTeamAlias');
}

// Member menu
export interface MemberActionInput {
  actor: { userId: string; role: MemberRole };
  /** `status` is the stored status: an expired invitation is still `invited`. */
  member: { userId: string; role: MemberRole; status: MemberStatus; type: MemberType };
}

const isSelf = ({ actor, member }: MemberActionInput): boolean => actor.userId === member.userId;

/** The shared guard of the actions a manager takes on someone else who is not the owner. */
function managesOther(input: MemberActionInput): boolean {
  return (
    hasPermission(input.actor.role, 'updateAnyMember') &&
    !isSelf(input) &&
    input.member.role !== 'owner'
  );
}

export function canSeeMemberInfo({ actor }: MemberActionInput): boolean {
  return hasPermission(actor.role, 'readMember');
}

export function canResetMemberPassword({ actor, member }: MemberActionInput): boolean {
  return hasPermission(actor.role, 'updateAnyMember') && member.type === 'internal';
}

export function canResendInvitation({ actor, member }: MemberActionInput): boolean {
  return hasPermission(actor.role, 'updateAnyMember') && member.status === 'invited';
}

/** Internal members stay uploaders, so their role cannot change. */
export function canChangeMemberRole(input: MemberActionInput): boolean {
  return (
    managesOther(input) && input.member.status === 'active' && input.member.type !== 'internal'
  );
}

export function canDisableMember(input: MemberActionInput): boolean {
  return managesOther(input) && input.member.status === 'active';
}

export function canReactivateMember(input: MemberActionInput): boolean {
  return (
    managesOther(input) && (input.member.status === 'disabled' || input.member.status === 'banned')
  );
}

export function canRenameMember(input: MemberActionInput): boolean {
  const self = isSelf(input);
  const { role } = input.actor;
  if (hasPermission(role, 'updateAnyMember') && (self || input.member.role !== 'owner'))
    return true;
  return self && hasPermission(role, 'updateOwnMember');
}

/**
 * Remove: the matrix's deleteMember, and like every other action on someone else, never the owner
 * (a team always keeps its owner) and never oneself.
 */
export function canRemoveMember(input: MemberActionInput): boolean {
  return (
    hasPermission(input.actor.role, 'deleteMember') &&
    !isSelf(input) &&
    input.member.role !== 'owner'
  );
}

/** The add-member button does not concern a particular member, so it takes the actor's role. */
export function canAddMember(role: MemberRole): boolean {
  return hasPermission(role, 'createMember');
}

// Member changes
/** The roles a role change may set (spec §4): never owner. */
export const ROLE_CHANGE_TARGETS = ASSIGNABLE_ROLES;

const STATUS_TRANSITIONS: Readonly<Partial<Record<MemberStatus, readonly MemberStatus[]>>> = {
  active: ['disabled'],
  disabled: ['active'],
  banned: ['active'],
};

/** Status changes a member PATCH may make: disable an active member, reactivate a disabled or banned one. */
export function allowedMemberStatusTransition(from: MemberStatus, to: MemberStatus): boolean {
  return STATUS_TRANSITIONS[from]?.includes(to) ?? false;
}
