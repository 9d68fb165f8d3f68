import type { Team } from '@raccolta/contracts';

/** The team fields PATCH /teams/{teamId} accepts; the rest are the server's to set. */
export const PATCHABLE_TEAM_FIELDS = [
  'name',
  'description',
  'mode',
  'starAlias',
  'stripLocation',
  'requireSecondFactor',
] as const;
export type PatchableTeamField = (typeof PATCHABLE_TEAM_FIELDS)[number];
export type EditableTeam = Pick<Team, PatchableTeamField>;

export type TeamPatchOperation =
  | { op: 'add' | 'replace'; path: `/${PatchableTeamField}`; value: string | boolean }
  | { op: 'remove'; path: `/${PatchableTeamField}` };

/**
 * Spec §3: a team update is the RFC 6902 list computed between the original and the updated
 * team. Only changed fields appear, so a rename is exactly one `replace` of /name and a
 * concurrent change of another field is not overwritten with the value this page loaded.
 */
export function teamPatch(original: EditableTeam, updated: EditableTeam): TeamPatchOperation[] {
  const operations: TeamPatchOperation[] = [];
  for (const field of PATCHABLE_TEAM_FIELDS) {
    const before = original[field];
    const after = updated[field];
    if (before === after) continue;
    const path = `/${field}` as const;
    if (after === null) operations.push({ op: 'remove', path });
    else operations.push({ op: before === null ? 'add' : 'replace', path, value: after });
  }
  return operations;
}
