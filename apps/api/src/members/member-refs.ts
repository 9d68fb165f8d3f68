import type { MemberRef } from '@raccolta/contracts';
import type { Db } from '../db/create-db.js';
import { preparedQuery } from '../db/prepared.js';

const refsOf = preparedQuery((db, teamId: string, ids: string[]) =>
  db
    .selectFrom('users')
    .leftJoin('team_members', (join) =>
      join.onRef('team_members.user_id', '=', 'users.id').on('team_members.team_id', '=', teamId),
    )
    .select([
      'users.id as user_id',
      'users.avatar_url',
      'users.nickname as user_nickname',
      'users.username',
      'team_members.nickname',
      'team_members.team_id',
    ])
    .where('users.id', 'in', ids),
);

/**
 * Names and avatars of some users as members of one team, in one query, for lists that show who
 * created, uploaded or is tagged. A member who left keeps the name they had, so their uploads
 * still say who made them; a user with no membership row at all gets a null nickname.
 */
export async function memberRefs(
  db: Db,
  teamId: string,
  userIds: Iterable<string>,
): Promise<Map<string, MemberRef>> {
  const ids = [...new Set(userIds)];
  const refs = new Map<string, MemberRef>(
    ids.map((userId) => [userId, { userId, nickname: null, avatarUrl: null }]),
  );
  if (ids.length === 0) return refs;
  const rows = await refsOf.all(db, teamId, ids);
  for (const row of rows) {
    refs.set(row.user_id, {
      userId: row.user_id,
      // Members are named as the members list names them.
      nickname: row.team_id === null ? null : (row.nickname ?? row.user_nickname ?? row.username),
      avatarUrl: row.avatar_url,
    });
  }
  return refs;
}

/** The same for rows of several teams (GET /collections, GET /files). */
export async function memberRefsByTeam(
  db: Db,
  pairs: Iterable<{ teamId: string; userId: string }>,
): Promise<(teamId: string, userId: string) => MemberRef> {
  const byTeam = new Map<string, Set<string>>();
  for (const { teamId, userId } of pairs) {
    const set = byTeam.get(teamId) ?? new Set<string>();
    set.add(userId);
    byTeam.set(teamId, set);
  }
  const maps = new Map<string, Map<string, MemberRef>>();
  await Promise.all(
    [...byTeam].map(async ([teamId, ids]) => maps.set(teamId, await memberRefs(db, teamId, ids))),
  );
  return (teamId, userId) =>
    maps.get(teamId)?.get(userId) ?? { userId, nickname: null, avatarUrl: null };
}
