import {
  canAddAlias,
  canCreateCollection,
  canCreateDownload,
  canCreateFile,
  canDeleteCollection,
  canDeleteFile,
  canDownloadFile,
  canManageTrash,
  canManageUploadLinks,
  canRenameTeam,
  canSeeTeamDetails,
  canUpdateCollection,
  hasPermission,
} from '@raccolta/contracts';
import { memberPolicy, type MemberActor } from '../members/members.policy.js';
import type { CollectionAccess, MemberAccess, Rule, TeamAccess } from './access.js';

/**
 * The rules requireAccess asks, one per action, each the contracts' §6 function (the one the web
 * app hides its menu entries with) over the rows the access check loaded. A rule of the team
 * applies to any object of the team.
 */

/** The caller as the member rules of contracts name them. */
export function memberActor(access: TeamAccess): MemberActor {
  return { userId: access.actor.id, role: access.role };
}

function onCollection(access: CollectionAccess) {
  return {
    role: access.role,
    actorUserId: access.actor.id,
    collection: { createdBy: access.collection.created_by, mode: access.collection.mode },
  };
}

export const can = {
  // The team
  readTeam: ((a) => canSeeTeamDetails(a.role)) as Rule<TeamAccess>,
  updateTeam: ((a) => canRenameTeam(a.role)) as Rule<TeamAccess>,
  addTeamAlias: ((a) => canAddAlias(a.role)) as Rule<TeamAccess>,
  manageTrash: ((a) => canManageTrash(a.role)) as Rule<TeamAccess>,
  listCollections: ((a) => hasPermission(a.role, 'readCollection')) as Rule<TeamAccess>,
  createCollection: ((a) =>
    canCreateCollection({ role: a.role, teamMode: a.team.mode })) as Rule<TeamAccess>,
  /** Files of the team's collections; each file listed is in a collection the caller sees. */
  readFiles: ((a) => hasPermission(a.role, 'readFile')) as Rule<TeamAccess>,

  // A collection the caller sees
  readCollection: ((a) => hasPermission(a.role, 'readCollection')) as Rule<CollectionAccess>,
  updateCollection: ((a) => canUpdateCollection(onCollection(a))) as Rule<CollectionAccess>,
  deleteCollection: ((a) => canDeleteCollection(a.role)) as Rule<CollectionAccess>,
  uploadFile: ((a) => canCreateFile(onCollection(a))) as Rule<CollectionAccess>,
  downloadFile: ((a) =>
    hasPermission(a.role, 'readFile') && canDownloadFile(a.role)) as Rule<CollectionAccess>,
  deleteFile: ((a) =>
    hasPermission(a.role, 'readFile') && canDeleteFile(a.role)) as Rule<CollectionAccess>,
  createDownload: ((a) => canCreateDownload(a.role)) as Rule<CollectionAccess>,
  /** Its upload links for guests (issue #36). */
  manageUploadLinks: ((a) => canManageUploadLinks(onCollection(a))) as Rule<CollectionAccess>,
  /** The caller's own download: still allowed to read downloads. */
  readDownload: ((a) => hasPermission(a.role, 'readDownload')) as Rule<CollectionAccess>,

  // Members
  listMembers: ((a) => memberPolicy.list(memberActor(a))) as Rule<TeamAccess>,
  addMember: ((a) => memberPolicy.add(memberActor(a))) as Rule<TeamAccess>,
  readMember: ((a) => memberPolicy.read(memberActor(a), a.target)) as Rule<MemberAccess>,
  removeMember: ((a) => memberPolicy.remove(memberActor(a), a.target)) as Rule<MemberAccess>,
  resendInvitation: ((a) =>
    memberPolicy.resendInvitation(memberActor(a), a.target)) as Rule<MemberAccess>,
  resetMemberPassword: ((a) =>
    memberPolicy.resetPassword(memberActor(a), a.target)) as Rule<MemberAccess>,
  /** A member of the team, whatever follows: the change checks each of its operations. */
  anyMember: (() => true) as Rule<MemberAccess>,
};
