import { canSeeCollection } from '@raccolta/contracts';
import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import type { CollectionsTable } from '../db/database.js';
import { isUuid } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { loadTeamAccess, type TeamAccess } from '../teams/team-access.js';
import type { UserRow } from '../users/users.repository.js';
import { preparedQuery } from '../db/prepared.js';

const collectionInTeam = preparedQuery((db, id: string, teamId: string) =>
  db.selectFrom('collections').selectAll().where('id', '=', id).where('team_id', '=', teamId),
);

export type CollectionRow = Selectable<CollectionsTable>;

export interface CollectionAccess extends TeamAccess {
  collection: CollectionRow;
}

/** Whether the caller may see this collection: the §6 rule of contracts, on a stored row. */
export function seesCollection(access: TeamAccess, collection: CollectionRow): boolean {
  return canSeeCollection({
    role: access.role,
    actorUserId: access.actor.id,
    collection: { createdBy: collection.created_by, mode: collection.mode },
  });
}

/**
 * A collection as seen by an active member of its team. A collection of another team, a missing
 * one, or one the caller may not see (an uploader and someone else's owned collection) is 404
 * notFound, exactly as a foreign team is: its existence is never revealed.
 */
export async function loadCollectionAccess(
  ctx: Pick<AppContext, 'db'>,
  actor: UserRow,
  teamRef: string,
  collectionId: string,
  db: Db = ctx.db,
): Promise<CollectionAccess> {
  const access = await loadTeamAccess(ctx, actor, teamRef, db);
  if (!isUuid(collectionId)) throw new AppError('notFound');
  const collection = await collectionInTeam.first(db, collectionId, access.team.id);
  if (!collection || !seesCollection(access, collection)) throw new AppError('notFound');
  return { ...access, collection };
}
