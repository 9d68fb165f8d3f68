import type { MemberRole } from '@raccolta/contracts';
import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import type { TeamMembersTable, TeamsTable } from '../db/database.js';
import { isUuid } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import type { UserRow } from '../users/users.repository.js';
import { preparedQuery } from '../db/prepared.js';
import { teamCodeOf } from './team-code.js';

export type TeamRow = Selectable<TeamsTable>;
export type MemberRow = Selectable<TeamMembersTable>;

/** The caller's standing in a team, loaded on every request so a disabled member loses access at once. */
export interface TeamAccess {
  team: TeamRow;
  member: MemberRow;
  role: MemberRole;
  actor: UserRow;
}

const teamById = preparedQuery((db, id: string) =>
  db.selectFrom('teams').selectAll().where('id', '=', id),
);
const teamByAlias = preparedQuery((db, alias: string) =>
  db
    .selectFrom('teams')
    .innerJoin('team_aliases', 'team_aliases.team_id', 'teams.id')
    .selectAll('teams')
    .where('team_aliases.alias', '=', alias),
);
const membership = preparedQuery((db, teamId: string, userId: string) =>
  db
    .selectFrom('team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId),
);

const teamByCode = preparedQuery((db, code: string) =>
  db.selectFrom('teams').selectAll().where('code', '=', code),
);

/**
 * A team by id, alias or short code (any case); aliases are at most 30 characters, so they never
 * look like a UUID, and no alias spells a team's code (teams.service.ts, migration 0013).
 */
export async function findTeamByRef(db: Db, ref: string): Promise<TeamRow | undefined> {
  const value = ref.trim().toLowerCase();
  if (isUuid(value)) return teamById.first(db, value);
  const byAlias = await teamByAlias.first(db, value);
  if (byAlias) return byAlias;
  const code = teamCodeOf(value);
  return code === null ? undefined : teamByCode.first(db, code);
}

/**
 * The team as seen by an active member. Anything else — no such team, not a member, invited,
 * disabled, left — is 404 notFound: a foreign team's existence is never revealed.
 */
export async function loadTeamAccess(
  ctx: Pick<AppContext, 'db'>,
  actor: UserRow,
  teamRef: string,
  db: Db = ctx.db,
): Promise<TeamAccess> {
  const team = await findTeamByRef(db, teamRef);
  if (!team) throw new AppError('notFound');
  const member = await membership.first(db, team.id, actor.id);
  if (member?.status !== 'active') throw new AppError('notFound');
  return { team, member, role: member.role, actor };
}

/** One policy check per action: the contracts' rule decides, a refusal is 403 forbidden. */
export function authorize(allowed: boolean): void {
  if (!allowed) throw new AppError('forbidden');
}
