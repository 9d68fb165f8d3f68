/**
 * Query keys of the teams feature. A team is cached under the reference it was opened by (id or
 * alias, lower-cased as the API reads it), so /teams/choir and /teams/{id} are two entries that
 * updates keep in step by teamId.
 */
export const teamKeys = {
  all: ['teams'] as const,
  lists: () => [...teamKeys.all, 'list'] as const,
  list: (search: string) => [...teamKeys.lists(), { search }] as const,
  details: () => [...teamKeys.all, 'detail'] as const,
  detail: (ref: string) => [...teamKeys.details(), normaliseTeamRef(ref)] as const,
};

export function normaliseTeamRef(ref: string): string {
  return ref.trim().toLowerCase();
}

/** The address of a team's dashboard: its preferred alias reads better than the id. */
export function teamPath(team: { teamId: string; starAlias: string | null }): string {
  return `/teams/${encodeURIComponent(team.starAlias ?? team.teamId)}`;
}
