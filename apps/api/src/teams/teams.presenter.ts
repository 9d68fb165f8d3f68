import type { MemberRole, Team, TeamListItem } from '@raccolta/contracts';
import type { TeamRow } from '../db/rows.js';

/** A team; with `memberRole`, a team of the caller's list (TeamListItem). */
export function presentTeam(
  row: TeamRow,
  extras: { aliases: string[]; membersCount: number },
): Team;
export function presentTeam(
  row: TeamRow,
  extras: { aliases: string[]; membersCount: number; memberRole: MemberRole },
): TeamListItem;
export function presentTeam(
  row: TeamRow,
  extras: { aliases: string[]; membersCount: number; memberRole?: MemberRole },
): Team | TeamListItem {
  const team: Team = {
    teamId: row.id,
    name: row.name,
    description: row.description,
    mode: row.mode,
    ownerId: row.owner_id,
    createdAt: new Date(row.created_at).toISOString(),
    createdBy: row.created_by,
    updatedAt: new Date(row.updated_at).toISOString(),
    updatedBy: row.updated_by,
    membersCount: extras.membersCount,
    starAlias: row.star_alias,
    aliases: extras.aliases,
    logoUrl: row.logo_url,
    stripLocation: row.strip_location === 1,
    requireSecondFactor: row.require_second_factor === 1,
  };
  if (extras.memberRole === undefined) return team;
  return Object.assign(team, { memberRole: extras.memberRole });
}
