import type { CollectionMode, MemberRole, TeamMode } from '../constants.js';

/*
 * Truth tables of the §6 special rules about collections and their files, typed row by row from
 * the spec and docs/decisions.md, never computed from the rules in permissions.ts. The contracts
 * test checks every rule against them and that they hold every combination; the API's
 * authorisation matrices take their expected answers from them. A new role, mode or action
 * fails the test until its rows are typed here.
 *
 * `own`: the member created the collection. `mode`: collaborative is the spec's "shared".
 */

/** What a member may do to one collection of their team, and to the files in it. */
export const COLLECTION_ACTIONS = [
  /** Know it exists: read it, list it. A collection one may not see is answered 404. */
  'see',
  /** Rename, describe, tag it. */
  'update',
  /** Switch it between shared and private. */
  'changeMode',
  'delete',
  /** Upload a file into it. */
  'addFile',
  /** Ask whether it already holds files of given SHA-256 digests, before uploading them. */
  'lookupFiles',
  /** List and open its files, their thumbnails, their read marks. */
  'readFiles',
  /** Take a download link of one of its files. */
  'downloadFile',
  'deleteFile',
  /** Create, list, change, disable and delete its upload links for guests (issue #36). */
  'manageLinks',
] as const;
export type CollectionAction = (typeof COLLECTION_ACTIONS)[number];

export interface CollectionAccessRow {
  role: MemberRole;
  own: boolean;
  mode: CollectionMode;
  action: CollectionAction;
  allowed: boolean;
}

export const COLLECTION_ACCESS_TABLE: readonly CollectionAccessRow[] = [
  // The owner: everything, on every collection of the team.
  { role: 'owner', own: true, mode: 'owned', action: 'see', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'update', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'changeMode', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'delete', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'addFile', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'lookupFiles', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'readFiles', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'downloadFile', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'deleteFile', allowed: true },
  { role: 'owner', own: true, mode: 'owned', action: 'manageLinks', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'update', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'changeMode', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'delete', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'addFile', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'lookupFiles', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'downloadFile', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'deleteFile', allowed: true },
  { role: 'owner', own: true, mode: 'collaborative', action: 'manageLinks', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'see', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'update', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'changeMode', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'delete', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'addFile', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'lookupFiles', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'readFiles', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'downloadFile', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'deleteFile', allowed: true },
  { role: 'owner', own: false, mode: 'owned', action: 'manageLinks', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'update', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'changeMode', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'delete', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'addFile', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'lookupFiles', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'downloadFile', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'deleteFile', allowed: true },
  { role: 'owner', own: false, mode: 'collaborative', action: 'manageLinks', allowed: true },

  // The admin: as the owner (the two differ on team aliases and deleting the team only).
  { role: 'admin', own: true, mode: 'owned', action: 'see', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'update', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'changeMode', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'delete', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'addFile', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'lookupFiles', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'readFiles', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'downloadFile', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'deleteFile', allowed: true },
  { role: 'admin', own: true, mode: 'owned', action: 'manageLinks', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'update', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'changeMode', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'delete', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'addFile', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'lookupFiles', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'downloadFile', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'deleteFile', allowed: true },
  { role: 'admin', own: true, mode: 'collaborative', action: 'manageLinks', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'see', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'update', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'changeMode', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'delete', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'addFile', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'lookupFiles', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'readFiles', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'downloadFile', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'deleteFile', allowed: true },
  { role: 'admin', own: false, mode: 'owned', action: 'manageLinks', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'update', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'changeMode', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'delete', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'addFile', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'lookupFiles', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'downloadFile', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'deleteFile', allowed: true },
  { role: 'admin', own: false, mode: 'collaborative', action: 'manageLinks', allowed: true },

  // The uploader (Contributor): its own collections and the shared ones; changes its own only;
  // adds files to both; never switches the mode, deletes, or takes downloads (no createDownload).
  { role: 'uploader', own: true, mode: 'owned', action: 'see', allowed: true },
  { role: 'uploader', own: true, mode: 'owned', action: 'update', allowed: true },
  { role: 'uploader', own: true, mode: 'owned', action: 'changeMode', allowed: false },
  { role: 'uploader', own: true, mode: 'owned', action: 'delete', allowed: false },
  { role: 'uploader', own: true, mode: 'owned', action: 'addFile', allowed: true },
  { role: 'uploader', own: true, mode: 'owned', action: 'lookupFiles', allowed: true },
  { role: 'uploader', own: true, mode: 'owned', action: 'readFiles', allowed: true },
  { role: 'uploader', own: true, mode: 'owned', action: 'downloadFile', allowed: false },
  { role: 'uploader', own: true, mode: 'owned', action: 'deleteFile', allowed: false },
  { role: 'uploader', own: true, mode: 'owned', action: 'manageLinks', allowed: true },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'update', allowed: true },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'changeMode', allowed: false },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'delete', allowed: false },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'addFile', allowed: true },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'lookupFiles', allowed: true },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'downloadFile', allowed: false },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'deleteFile', allowed: false },
  { role: 'uploader', own: true, mode: 'collaborative', action: 'manageLinks', allowed: true },
  // Someone else's private collection: not even there.
  { role: 'uploader', own: false, mode: 'owned', action: 'see', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'update', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'changeMode', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'delete', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'addFile', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'lookupFiles', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'readFiles', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'downloadFile', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'deleteFile', allowed: false },
  { role: 'uploader', own: false, mode: 'owned', action: 'manageLinks', allowed: false },
  // Someone else's shared collection: seen, uploaded into, not renamed.
  { role: 'uploader', own: false, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'update', allowed: false },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'changeMode', allowed: false },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'delete', allowed: false },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'addFile', allowed: true },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'lookupFiles', allowed: true },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'downloadFile', allowed: false },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'deleteFile', allowed: false },
  { role: 'uploader', own: false, mode: 'collaborative', action: 'manageLinks', allowed: false },

  // The viewer: sees and downloads everything, changes nothing. (A viewer creates no collection,
  // but one made while an uploader stays its own after a role change.)
  { role: 'viewer', own: true, mode: 'owned', action: 'see', allowed: true },
  { role: 'viewer', own: true, mode: 'owned', action: 'update', allowed: false },
  { role: 'viewer', own: true, mode: 'owned', action: 'changeMode', allowed: false },
  { role: 'viewer', own: true, mode: 'owned', action: 'delete', allowed: false },
  { role: 'viewer', own: true, mode: 'owned', action: 'addFile', allowed: false },
  { role: 'viewer', own: true, mode: 'owned', action: 'lookupFiles', allowed: false },
  { role: 'viewer', own: true, mode: 'owned', action: 'readFiles', allowed: true },
  { role: 'viewer', own: true, mode: 'owned', action: 'downloadFile', allowed: true },
  { role: 'viewer', own: true, mode: 'owned', action: 'deleteFile', allowed: false },
  { role: 'viewer', own: true, mode: 'owned', action: 'manageLinks', allowed: false },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'update', allowed: false },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'changeMode', allowed: false },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'delete', allowed: false },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'addFile', allowed: false },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'lookupFiles', allowed: false },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'downloadFile', allowed: true },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'deleteFile', allowed: false },
  { role: 'viewer', own: true, mode: 'collaborative', action: 'manageLinks', allowed: false },
  { role: 'viewer', own: false, mode: 'owned', action: 'see', allowed: true },
  { role: 'viewer', own: false, mode: 'owned', action: 'update', allowed: false },
  { role: 'viewer', own: false, mode: 'owned', action: 'changeMode', allowed: false },
  { role: 'viewer', own: false, mode: 'owned', action: 'delete', allowed: false },
  { role: 'viewer', own: false, mode: 'owned', action: 'addFile', allowed: false },
  { role: 'viewer', own: false, mode: 'owned', action: 'lookupFiles', allowed: false },
  { role: 'viewer', own: false, mode: 'owned', action: 'readFiles', allowed: true },
  { role: 'viewer', own: false, mode: 'owned', action: 'downloadFile', allowed: true },
  { role: 'viewer', own: false, mode: 'owned', action: 'deleteFile', allowed: false },
  { role: 'viewer', own: false, mode: 'owned', action: 'manageLinks', allowed: false },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'see', allowed: true },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'update', allowed: false },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'changeMode', allowed: false },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'delete', allowed: false },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'addFile', allowed: false },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'lookupFiles', allowed: false },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'readFiles', allowed: true },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'downloadFile', allowed: true },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'deleteFile', allowed: false },
  { role: 'viewer', own: false, mode: 'collaborative', action: 'manageLinks', allowed: false },
];

/** Creating a collection of `mode` in a team of `teamMode`. */
export interface CreateCollectionRow {
  role: MemberRole;
  teamMode: TeamMode;
  mode: CollectionMode;
  allowed: boolean;
}

export const CREATE_COLLECTION_TABLE: readonly CreateCollectionRow[] = [
  { role: 'owner', teamMode: 'collaborative', mode: 'owned', allowed: true },
  { role: 'owner', teamMode: 'collaborative', mode: 'collaborative', allowed: true },
  { role: 'owner', teamMode: 'controlled', mode: 'owned', allowed: true },
  { role: 'owner', teamMode: 'controlled', mode: 'collaborative', allowed: true },
  { role: 'admin', teamMode: 'collaborative', mode: 'owned', allowed: true },
  { role: 'admin', teamMode: 'collaborative', mode: 'collaborative', allowed: true },
  { role: 'admin', teamMode: 'controlled', mode: 'owned', allowed: true },
  { role: 'admin', teamMode: 'controlled', mode: 'collaborative', allowed: true },
  // Only in a collaborative team, and never a shared one (the checkbox is disabled).
  { role: 'uploader', teamMode: 'collaborative', mode: 'owned', allowed: true },
  { role: 'uploader', teamMode: 'collaborative', mode: 'collaborative', allowed: false },
  { role: 'uploader', teamMode: 'controlled', mode: 'owned', allowed: false },
  { role: 'uploader', teamMode: 'controlled', mode: 'collaborative', allowed: false },
  { role: 'viewer', teamMode: 'collaborative', mode: 'owned', allowed: false },
  { role: 'viewer', teamMode: 'collaborative', mode: 'collaborative', allowed: false },
  { role: 'viewer', teamMode: 'controlled', mode: 'owned', allowed: false },
  { role: 'viewer', teamMode: 'controlled', mode: 'collaborative', allowed: false },
];

function single<Row extends { allowed: boolean }>(
  table: readonly Row[],
  matches: (row: Row) => boolean,
  what: string,
): boolean {
  const rows = table.filter(matches);
  const [row] = rows;
  if (rows.length !== 1 || row === undefined) throw new Error(`${what}: ${rows.length} rows`);
  return row.allowed;
}

/** The table's answer for one member, collection and action; throws for a row not typed. */
export function collectionRule(
  action: CollectionAction,
  at: { role: MemberRole; own: boolean; mode: CollectionMode },
): boolean {
  return single(
    COLLECTION_ACCESS_TABLE,
    (r) => r.action === action && r.role === at.role && r.own === at.own && r.mode === at.mode,
    `${at.role} ${at.own ? 'own' : 'other'} ${at.mode} ${action}`,
  );
}

/** The table's answer for creating a collection; throws for a row not typed. */
export function createCollectionRule(at: {
  role: MemberRole;
  teamMode: TeamMode;
  mode: CollectionMode;
}): boolean {
  return single(
    CREATE_COLLECTION_TABLE,
    (r) => r.role === at.role && r.teamMode === at.teamMode && r.mode === at.mode,
    `create ${at.mode} as ${at.role} in a ${at.teamMode} team`,
  );
}
