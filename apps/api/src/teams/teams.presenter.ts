import type { Team } from '@raccolta/contracts';
import type { TeamRow } from './team-access.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function presentTeam(
  row: TeamRow,
  extras: { aliases: string[]; membersCount: number },
): Team {
  return {
    teamId: row.id,
    name: row.name,
    description: row.description,
    mode: row.mode,
    ownerId: row.owner_id,
    createdAt: iso(row.created_at),
    createdBy: row.created_by,
    updatedAt: iso(row.updated_at),
    updatedBy: row.updated_by,
    membersCount: extras.membersCount,
    starAlias: row.star_alias,
    aliases: extras.aliases,
    logoUrl: row.logo_url,
  };
}
