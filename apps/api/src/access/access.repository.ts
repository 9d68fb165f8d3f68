import type { Db } from '../db/create-db.js';
import { isUuid } from '../db/ids.js';
import { teamCodeOf } from '../teams/team-code.js';
import type { CollectionRow, DownloadRow, MemberRow, TeamRow } from '../db/rows.js';

/** The reads the access check makes: plain statements, one per object it loads. */

/**
 * A team by id, alias or short code (any case); aliases are at most 30 characters, so they never
 * look like a UUID, and no alias spells a team's code (teams.service.ts, migration 0013).
 */
export async function findTeamByRef(db: Db, ref: string): Promise<TeamRow | undefined> {
  const value = ref.trim().toLowerCase();
  if (isUuid(value)) {
    return db.selectFrom('teams').selectAll().where('id', '=', value).executeTakeFirst();
  }
  const byAlias = await db
    .selectFrom('teams')
    .innerJoin('team_aliases', 'team_aliases.team_id', 'teams.id')
    .selectAll('teams')
    .where('team_aliases.alias', '=', value)
    .executeTakeFirst();
  if (byAlias) return byAlias;
  const code = teamCodeOf(value);
  if (code === null) return undefined;
  return db.selectFrom('teams').selectAll().where('code', '=', code).executeTakeFirst();
}

export function findMembership(
  db: Db,
  teamId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findCollectionInTeam(
  db: Db,
  teamId: string,
  collectionId: string,
): Promise<CollectionRow | undefined> {
  return db
    .selectFrom('collections')
    .selectAll()
    .where('id', '=', collectionId)
    .where('team_id', '=', teamId)
    .executeTakeFirst();
}

export function findDownload(db: Db, downloadId: string): Promise<DownloadRow | undefined> {
  return db.selectFrom('downloads').selectAll().where('id', '=', downloadId).executeTakeFirst();
}
