import type { MemberRole } from '../constants.js';
import type { Permission } from '../permissions.js';

/** A cell of the spec §6 matrix as printed: yes, no, or conditional / "only when". */
export type Cell = 'yes' | 'no' | 'conditional';

export type SpecMatrixRow = { permissions: readonly Permission[] } & Readonly<
  Record<MemberRole, Cell>
>;

/**
 * Spec §6, row by row, typed from the spec's table: never computed from PERMISSION_ROLES, so a
 * wrong entry there disagrees with this. A new role is a type error here until its column is typed.
 */
export const SPEC_MATRIX: readonly SpecMatrixRow[] = [
  {
    permissions: ['createCollection'],
    owner: 'yes',
    admin: 'yes',
    uploader: 'conditional',
    viewer: 'no',
  },
  { permissions: ['createDownload'], owner: 'yes', admin: 'yes', uploader: 'no', viewer: 'yes' },
  {
    permissions: ['createFile'],
    owner: 'yes',
    admin: 'yes',
    uploader: 'conditional',
    viewer: 'no',
  },
  { permissions: ['createMember'], owner: 'yes', admin: 'yes', uploader: 'no', viewer: 'no' },
  { permissions: ['createTeamAlias'], owner: 'yes', admin: 'no', uploader: 'no', viewer: 'no' },
  {
    permissions: ['readCollection', 'readFile', 'readMember', 'readTeam'],
    owner: 'yes',
    admin: 'yes',
    uploader: 'yes',
    viewer: 'yes',
  },
  { permissions: ['readDownload'], owner: 'yes', admin: 'yes', uploader: 'no', viewer: 'yes' },
  { permissions: ['updateTeam'], owner: 'yes', admin: 'yes', uploader: 'no', viewer: 'no' },
  { permissions: ['updateAnyMember'], owner: 'yes', admin: 'yes', uploader: 'no', viewer: 'no' },
  { permissions: ['updateOwnMember'], owner: 'yes', admin: 'yes', uploader: 'yes', viewer: 'yes' },
  { permissions: ['updateFile'], owner: 'yes', admin: 'yes', uploader: 'no', viewer: 'no' },
  { permissions: ['updateCollection'], owner: 'yes', admin: 'yes', uploader: 'yes', viewer: 'no' },
  { permissions: ['deleteTeam'], owner: 'yes', admin: 'no', uploader: 'no', viewer: 'no' },
  {
    permissions: ['deleteCollection', 'deleteFile', 'deleteMember'],
    owner: 'yes',
    admin: 'yes',
    uploader: 'no',
    viewer: 'no',
  },
];

/** The cell of the spec's matrix for a permission and a role; throws for a permission not typed. */
export function specCell(permission: Permission, role: MemberRole): Cell {
  const rows = SPEC_MATRIX.filter((row) => row.permissions.includes(permission));
  const [row] = rows;
  if (rows.length !== 1 || row === undefined)
    throw new Error(`${permission}: ${rows.length} rows in SPEC_MATRIX`);
  return row[role];
}

/** A plain "yes" of the matrix: what a role may do with no special rule involved. */
export const specAllows = (permission: Permission, role: MemberRole): boolean =>
  specCell(permission, role) === 'yes';

/** The special rules that depend on the role alone, each role's answer typed from §6. */
export const ROLE_RULES = [
  'createDownload',
  'downloadFile',
  'chooseCollaborative',
  'changeCollectionMode',
  'deleteCollection',
  'deleteFile',
  'manageTrash',
  'seeTeamDetails',
  'renameTeam',
  'addAlias',
  'addMember',
  'sendReminder',
] as const;
export type RoleRule = (typeof ROLE_RULES)[number];

export const ROLE_RULE_TABLE: Readonly<Record<RoleRule, Readonly<Record<MemberRole, boolean>>>> = {
  // Downloads from the preview and per collection need createDownload.
  createDownload: { owner: true, admin: true, uploader: false, viewer: true },
  downloadFile: { owner: true, admin: true, uploader: false, viewer: true },
  // The uploader's checkbox is disabled; a viewer creates no collection at all.
  chooseCollaborative: { owner: true, admin: true, uploader: false, viewer: false },
  changeCollectionMode: { owner: true, admin: true, uploader: false, viewer: false },
  deleteCollection: { owner: true, admin: true, uploader: false, viewer: false },
  deleteFile: { owner: true, admin: true, uploader: false, viewer: false },
  // Whoever may delete what the trash holds.
  manageTrash: { owner: true, admin: true, uploader: false, viewer: false },
  // Header menu: Details needs readTeam, Rename updateTeam, Add Alias createTeamAlias.
  seeTeamDetails: { owner: true, admin: true, uploader: true, viewer: true },
  renameTeam: { owner: true, admin: true, uploader: false, viewer: false },
  addAlias: { owner: true, admin: false, uploader: false, viewer: false },
  // The add-member button needs createMember.
  addMember: { owner: true, admin: true, uploader: false, viewer: false },
  // Issue #36: "Owners and admins can send a reminder now from the collection's menu".
  sendReminder: { owner: true, admin: true, uploader: false, viewer: false },
};
