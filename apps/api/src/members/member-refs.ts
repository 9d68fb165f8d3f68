import type { MemberRef } from '@raccolta/contracts';
import type { Db } from '../db/create-db.js';

// The member's name as a correlated subquery, not a left join: SQLite answers the join by
// scanning users when the table is small, three times slower (docs/benchmarks.md, "Authenticated
// lists under load"). Null when the user has no membership row in the team at all.
function refsOf(db: Db, teamId: string, ids: string[]) {
  return db
    .selectFrom('users')
    .select(['users.id as user_id', 'users.avatar_url'])
    .select((eb) =>
      eb
        .selectFrom('team_members')
        .select((inner) =>
          // Members are named as the members list names them.
          inner.fn
            .coalesce('team_members.nickname', 'users.nickname', 'users.username')
            .as('member_name'),
        )
        .whereRef('team_members.user_id', '=', 'users.id')
        .where('team_members.team_id', '=', teamId)
        .as('nickname'),
    )
    .where('users.id', 'in', ids)
    .execute();
}

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
  const rows = await refsOf(db, teamId, ids);
  for (const row of rows) {
    refs.set(row.user_id, {
      userId: row.user_id,
      nickname: row.nickname,
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
