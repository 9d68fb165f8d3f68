import {
  canAddAlias,
  canReceiveDigest,
  canSeeCollection,
  canCreateCollection,
  canCreateDownload,
  canCreateFile,
  canDeleteCollection,
  canDeleteFile,
  canDownloadFile,
  canLookupFiles,
  canManageTrash,
  canManageUploadLinks,
  canRenameTeam,
  canSendReminder,
  canSeeTeamDetails,
  canUpdateCollection,
  hasPermission,
  type MemberRole,
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

/**
 * Whether a member (role, user id) may read the files of a collection row: the same §6 rule
 * requireAccess answers 404 by, for work that runs as a member without a request (digests).
 */
export function readsFilesOf(
  member: { role: MemberRole; userId: string },
  collection: { created_by: string; mode: 'owned' | 'collaborative' },
): boolean {
  return (
    hasPermission(member.role, 'readFile') &&
    canSeeCollection({
      role: member.role,
      actorUserId: member.userId,
      collection: { createdBy: collection.created_by, mode: collection.mode },
    })
  );
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
  /** The caller's own digest choice: any member may read it. */
  readOwnDigest: (() => true) as Rule<TeamAccess>,
  /** Choosing a digest: a member who can receive one (an e-mail address: not internal). */
  chooseDigest: ((a) =>
    canReceiveDigest({ role: a.role, hasEmail: a.actor.email !== null })) as Rule<TeamAccess>,

  // A collection the caller sees
  readCollection: ((a) => hasPermission(a.role, 'readCollection')) as Rule<CollectionAccess>,
  updateCollection: ((a) => canUpdateCollection(onCollection(a))) as Rule<CollectionAccess>,
  deleteCollection: ((a) => canDeleteCollection(a.role)) as Rule<CollectionAccess>,
  uploadFile: ((a) => canCreateFile(onCollection(a))) as Rule<CollectionAccess>,
  lookupFiles: ((a) => canLookupFiles(onCollection(a))) as Rule<CollectionAccess>,
  downloadFile: ((a) =>
    hasPermission(a.role, 'readFile') && canDownloadFile(a.role)) as Rule<CollectionAccess>,
  deleteFile: ((a) =>
    hasPermission(a.role, 'readFile') && canDeleteFile(a.role)) as Rule<CollectionAccess>,
  createDownload: ((a) => canCreateDownload(a.role)) as Rule<CollectionAccess>,
  /** Its upload links for guests (issue #36). */
  manageUploadLinks: ((a) => canManageUploadLinks(onCollection(a))) as Rule<CollectionAccess>,
  /** "Send a reminder now" (issue #36). */
  sendReminder: ((a) => canSendReminder(a.role)) as Rule<CollectionAccess>,
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
