import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import { AppError } from '../errors/app-error.js';
import { findTeamByRef, type TeamRow } from '../teams/team-access.js';
import type { UserRow } from '../users/users.repository.js';
import type { MemberActor } from './members.policy.js';
import { lockMembers, type MemberRow } from './members.repository.js';

export interface LockedAccess {
  team: TeamRow;
  actor: MemberActor;
  actorRow: MemberRow;
}

/**
 * The caller's standing in a team for a change, read inside the change's transaction with the
 * caller's row (and the target's) locked: a caller demoted or disabled a moment ago acts with what
 * they are now, and two managers changing the same members take turns. Like loadTeamAccess,
 * anything but an active membership is 404, and so is a target outside the team.
 */
export async function lockAccess(
  ctx: AppContext,
  trx: Db,
  user: UserRow,
  teamRef: string,
): Promise<LockedAccess>;
export async function lockAccess(
  ctx: AppContext,
  trx: Db,
  user: UserRow,
  teamRef: string,
  targetId: string,
): Promise<LockedAccess & { target: MemberRow }>;
export async function lockAccess(
  ctx: AppContext,
  trx: Db,
  user: UserRow,
  teamRef: string,
  targetId?: string,
): Promise<LockedAccess & { target?: MemberRow }> {
  const team = await findTeamByRef(trx, teamRef);
  if (!team) throw new AppError('notFound');
  const ids = targetId === undefined ? [user.id] : [...new Set([user.id, targetId])];
  const rows = await lockMembers(trx, ctx.config.database.kind, team.id, ids);
  const actorRow = rows.get(user.id);
  if (actorRow?.status !== 'active') throw new AppError('notFound');
  const actor = { userId: user.id, role: actorRow.role };
  if (targetId === undefined) return { team, actor, actorRow };
  const target = rows.get(targetId);
  if (!target) throw new AppError('notFound');
  return { team, actor, actorRow, target };
}
