import type { Db, DbKind } from '../db/create-db.js';
import type { TeamMembersTable, TeamsTable } from '../db/database.js';
import { paginate, type Page } from '../db/pagination.js';
import { sql, type Insertable, type Updateable } from 'kysely';
import { likeEscaped } from '../db/like.js';
import type { MemberRole } from '@raccolta/contracts';
import type { TeamRow } from '../db/rows.js';
import { teamNameSearchPattern } from './team-name.js';

/** The folded name as stored, or as lower() reads it where another module left it unset. */
const storedNameKey = sql<string>`coalesce(teams.name_key, lower(teams.name))`;

export interface TeamListRow extends TeamRow {
  member_role: MemberRole;
  /** Active members, counted in the page's own statement. */
  members_count: number | string | null;
}

/** The teams a user is an active member of, newest first, optionally by a part of the name. */
export function listTeamsOfUser(
  db: Db,
  userId: string,
  opts: { search?: string | undefined; lastKey?: string | undefined; limit?: number | undefined },
): Promise<Page<TeamListRow>> {
  const search = opts.search?.trim();
  let q = db
    .selectFrom('teams')
    .innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .selectAll('teams')
    .select('team_members.role as member_role')
    .select((eb) =>
      eb
        .selectFrom('team_members as counted')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('counted.team_id', '=', 'teams.id')
        .where('counted.status', '=', 'active')
        .as('members_count'),
    )
    .where('team_members.user_id', '=', userId)
    .where('team_members.status', '=', 'active');
  if (search) q = q.where(likeEscaped(storedNameKey, teamNameSearchPattern(search)));
  return paginate(q, {
    sortColumn: 'teams.created_at',
    idColumn: 'teams.id',
    sortValue: (r) => r.created_at,
    id: (r) => r.id,
    direction: 'desc',
    lastKey: opts.lastKey,
    limit: opts.limit,
  });
}

/** The aliases of several teams, oldest first. */
export async function teamAliases(db: Db, teamIds: string[]): Promise<Map<string, string[]>> {
  const aliases = new Map<string, string[]>();
  if (teamIds.length === 0) return aliases;
  const rows = await db
    .selectFrom('team_aliases')
    .select(['team_id', 'alias'])
    .where('team_id', 'in', teamIds)
    .orderBy('created_at')
    .orderBy('alias')
    .execute();
  for (const r of rows) aliases.set(r.team_id, [...(aliases.get(r.team_id) ?? []), r.alias]);
  return aliases;
}

/** Aliases (oldest first) and active-member counts of several teams in two queries. */
export async function teamExtras(
  db: Db,
  teamIds: string[],
): Promise<{ aliases: Map<string, string[]>; counts: Map<string, number> }> {
  const counts = new Map<string, number>();
  const [aliases, countRows] = await Promise.all([
    teamAliases(db, teamIds),
    teamIds.length === 0
      ? []
      : db
          .selectFrom('team_members')
          .select(['team_id', (eb) => eb.fn.countAll<number | string>().as('n')])
          .where('team_id', 'in', teamIds)
          .where('status', '=', 'active')
          .groupBy('team_id')
          .execute(),
  ]);
  for (const r of countRows) counts.set(r.team_id, Number(r.n));
  return { aliases, counts };
}

/** A new team and its owner's membership, in the caller's transaction. */
export async function insertTeamWithOwner(
  db: Db,
  team: Insertable<TeamsTable>,
  owner: Insertable<TeamMembersTable>,
): Promise<void> {
  await db.insertInto('teams').values(team).execute();
  await db.insertInto('team_members').values(owner).execute();
}

export function findTeamById(db: Db, teamId: string): Promise<TeamRow | undefined> {
  return db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
}

/**
 * Serialises writes that check a team-wide limit (aliases, storage quota, prepared archives) on
 * PostgreSQL until the transaction ends; SQLite has one writer. FOR NO KEY UPDATE conflicts with
 * itself but not with the key-share lock a foreign key to the team takes, so rows pointing at the
 * team are written meanwhile without waiting.
 */
export async function lockTeamRow(db: Db, kind: DbKind, teamId: string): Promise<void> {
  if (kind !== 'postgres') return;
  await db.selectFrom('teams').select('id').where('id', '=', teamId).forNoKeyUpdate().execute();
}

/** Whether an alias is in use, or spells a team's short code (`code`, null when it cannot). */
export async function isAliasTaken(db: Db, alias: string, code: string | null): Promise<boolean> {
  const taken = await db
    .selectFrom('team_aliases')
    .select('team_id')
    .where('alias', '=', alias)
    .executeTakeFirst();
  if (taken) return true;
  if (code === null) return false;
  return (await db.selectFrom('teams').select('id').where('code', '=', code).executeTakeFirst())
    ? true
    : false;
}

export async function countTeamAliases(db: Db, teamId: string): Promise<number> {
  const count = await db
    .selectFrom('team_aliases')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('team_id', '=', teamId)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

/** Adds the alias unless another team took it a moment ago: true when this insert won. */
export async function insertAlias(
  db: Db,
  row: { alias: string; team_id: string; created_at: number; created_by: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('team_aliases')
    .values(row)
    .onConflict((oc) => oc.column('alias').doNothing())
    .returning('alias')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function updateTeam(
  db: Db,
  teamId: string,
  changes: Updateable<TeamsTable>,
): Promise<void> {
  await db.updateTable('teams').set(changes).where('id', '=', teamId).execute();
}
