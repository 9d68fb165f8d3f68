import { canSeeCollection, type MemberRole } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { isUuid } from '../db/ids.js';
import type { CollectionRow, DownloadRow, MemberRow, TeamRow } from '../db/rows.js';
import { hasSecondFactor } from '../auth/second-factor/factors.js';
import { AppError } from '../errors/app-error.js';
import { lockMembers } from '../members/members.repository.js';
import { findUpload, type UploadRow } from '../uploads/uploads.repository.js';
import type { UserRow } from '../users/users.repository.js';
import {
  findCollectionInTeam,
  findDownload,
  findMembership,
  findTeamByRef,
} from './access.repository.js';

/**
 * The one way a route, service or job learns what a user may do with a team's objects. It loads
 * the caller's standing and the object from the database on every call (a member disabled a
 * moment ago has no access at once), answers 404 for anything the caller may not know exists,
 * and asks a rule (rules.ts: the contracts' §6 functions over what was loaded) whether the action
 * is allowed: 403 when not.
 *
 *     const access = await requireAccess(ctx, user, { team, collection }, can.uploadFile);
 *
 * Never revealed (404 notFound): a team that does not exist or of which the caller is not an
 * active member; a collection of another team or one the caller may not see (an uploader and
 * someone else's private collection); a download or an upload that is not the caller's own; a
 * member outside the team.
 */

/** The caller's standing in a team. */
export interface TeamAccess {
  team: TeamRow;
  /** The caller's membership row. */
  member: MemberRow;
  role: MemberRole;
  actor: UserRow;
}

export interface CollectionAccess extends TeamAccess {
  collection: CollectionRow;
}

/** The caller's own collection download. */
export interface DownloadAccess extends CollectionAccess {
  download: DownloadRow;
}

/** The caller's own resumable upload into the collection. */
export interface UploadAccess extends CollectionAccess {
  upload: UploadRow;
}

/** Another (or the same) member of the team, read with the caller's row locked for a change. */
export interface MemberAccess extends TeamAccess {
  target: MemberRow;
}

/** An action's rule: whether the loaded access allows it (spec §6, through contracts). */
export type Rule<A extends TeamAccess> = (access: A) => boolean;

export type AccessDeps = Pick<AppContext, 'db' | 'config'>;

export interface AccessOptions {
  /** The transaction of a change, so what is checked is what the change sees. */
  db?: Db;
  /**
   * Lock the caller's membership row (and the target member's) until the transaction ends: a
   * caller demoted a moment ago acts with what they are now, and two managers changing the same
   * members take turns. Needs `db` to be a transaction.
   */
  lock?: boolean;
  /**
   * What a refused rule answers: 403 forbidden (default), or 404 notFound where even the refusal
   * would say too much (links whose holder may no longer see the file).
   */
  refusal?: 'forbidden' | 'notFound';
  /**
   * Skip the team's second-factor requirement: only for reading the team itself, so the web app
   * can show an owner or admin without a factor why and where to add one, and for a guest's
   * upload through a link, checked as its creator (the requirement is about members' sign-ins).
   */
  secondFactorExempt?: boolean;
}

export interface TeamTarget {
  team: string;
}
export interface CollectionTarget extends TeamTarget {
  collection: string;
}
export interface UploadTarget extends CollectionTarget {
  upload: string;
}
export interface DownloadTarget extends TeamTarget {
  download: string;
}
export interface MemberTarget extends TeamTarget {
  member: string;
}

export async function requireAccess(
  ctx: AccessDeps,
  actor: UserRow,
  target: UploadTarget,
  rule: Rule<UploadAccess>,
  options?: AccessOptions,
): Promise<UploadAccess>;
export async function requireAccess(
  ctx: AccessDeps,
  actor: UserRow,
  target: CollectionTarget,
  rule: Rule<CollectionAccess>,
  options?: AccessOptions,
): Promise<CollectionAccess>;
export async function requireAccess(
  ctx: AccessDeps,
  actor: UserRow,
  target: DownloadTarget,
  rule: Rule<DownloadAccess>,
  options?: AccessOptions,
): Promise<DownloadAccess>;
export async function requireAccess(
  ctx: AccessDeps,
  actor: UserRow,
  target: MemberTarget,
  rule: Rule<MemberAccess>,
  options?: AccessOptions,
): Promise<MemberAccess>;
export async function requireAccess(
  ctx: AccessDeps,
  actor: UserRow,
  target: TeamTarget,
  rule: Rule<TeamAccess>,
  options?: AccessOptions,
): Promise<TeamAccess>;
export async function requireAccess(
  ctx: AccessDeps,
  actor: UserRow,
  target: TeamTarget & Partial<CollectionTarget & UploadTarget & DownloadTarget & MemberTarget>,
  rule: Rule<never>,
  options: AccessOptions = {},
): Promise<TeamAccess> {
  const access = await load(ctx, actor, target, options);
  if (!options.secondFactorExempt) await requireTeamSecondFactor(options.db ?? ctx.db, access);
  if (!(rule as Rule<TeamAccess>)(access)) {
    throw new AppError(options.refusal ?? 'forbidden');
  }
  return access;
}

/**
 * A team that requires a second factor of its owners and admins (teams.require_second_factor)
 * refuses them every team-scoped call until they have one: 403 secondFactorEnrolmentRequired.
 * Uploaders and viewers are not asked.
 */
async function requireTeamSecondFactor(db: Db, access: TeamAccess): Promise<void> {
  if (access.team.require_second_factor !== 1) return;
  if (access.role !== 'owner' && access.role !== 'admin') return;
  if (await hasSecondFactor(db, access.actor.id)) return;
  throw new AppError('secondFactorEnrolmentRequired');
}

/** A refusal as the rule's answer: for checks after the first one, on what the change holds. */
export function authorize(allowed: boolean): void {
  if (!allowed) throw new AppError('forbidden');
}

async function load(
  ctx: AccessDeps,
  actor: UserRow,
  target: TeamTarget & Partial<CollectionTarget & UploadTarget & DownloadTarget & MemberTarget>,
  options: AccessOptions,
): Promise<TeamAccess> {
  const db = options.db ?? ctx.db;
  const team = await findTeamByRef(db, target.team);
  if (!team) throw new AppError('notFound');
  if (target.member !== undefined && !isUuid(target.member)) throw new AppError('notFound');

  let member: MemberRow | undefined;
  let targetMember: MemberRow | undefined;
  if (options.lock) {
    const ids = [...new Set([actor.id, ...(target.member === undefined ? [] : [target.member])])];
    const rows = await lockMembers(db, ctx.config.database.kind, team.id, ids);
    member = rows.get(actor.id);
    targetMember = target.member === undefined ? undefined : rows.get(target.member);
  } else {
    member = await findMembership(db, team.id, actor.id);
    if (target.member !== undefined && member?.status === 'active') {
      targetMember = await findMembership(db, team.id, target.member);
    }
  }
  if (member?.status !== 'active') throw new AppError('notFound');
  const access: TeamAccess = { team, member, role: member.role, actor };

  if (target.member !== undefined) {
    if (!targetMember) throw new AppError('notFound');
    const memberAccess: MemberAccess = { ...access, target: targetMember };
    return memberAccess;
  }

  let collectionId = target.collection;
  let download: DownloadRow | undefined;
  if (target.download !== undefined) {
    download = isUuid(target.download) ? await findDownload(db, target.download) : undefined;
    if (!download || download.requested_by !== actor.id || download.team_id !== team.id) {
      throw new AppError('notFound');
    }
    collectionId = download.collection_id;
  }
  if (collectionId === undefined) return access;

  const collection = isUuid(collectionId)
    ? await findCollectionInTeam(db, team.id, collectionId)
    : undefined;
  if (!collection || !seesCollection(access, collection)) throw new AppError('notFound');
  const collectionAccess: CollectionAccess = { ...access, collection };
  if (download) {
    const downloadAccess: DownloadAccess = { ...collectionAccess, download };
    return downloadAccess;
  }

  if (target.upload !== undefined) {
    const upload = isUuid(target.upload) ? await findUpload(db, target.upload) : undefined;
    if (
      !upload ||
      upload.team_id !== team.id ||
      upload.collection_id !== collection.id ||
      upload.created_by !== actor.id ||
      // A guest's upload through a link is reached through the link only (guest-access.ts).
      upload.link_id !== null
    ) {
      throw new AppError('notFound');
    }
    const uploadAccess: UploadAccess = { ...collectionAccess, upload };
    return uploadAccess;
  }
  return collectionAccess;
}

/** Whether the caller may see this collection at all: otherwise it is 404, like a foreign one. */
function seesCollection(access: TeamAccess, collection: CollectionRow): boolean {
  return canSeeCollection({
    role: access.role,
    actorUserId: access.actor.id,
    collection: { createdBy: collection.created_by, mode: collection.mode },
  });
}
