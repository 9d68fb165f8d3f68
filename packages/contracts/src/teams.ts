import { z } from 'zod';
import { PLANS, TEAM_MODES } from './constants.js';
import type { MemberRole } from './constants.js';
import { memberRoleSchema } from './members.js';
import { paginationSchema } from './pagination.js';

/** The team shapes the API answers with (spec §3). Times are ISO 8601 strings in UTC. */

export const teamModeValueSchema = z.enum(TEAM_MODES);
export const planSchema = z.enum(PLANS);

export const teamSchema = z.object({
  teamId: z.uuid(),
  name: z.string(),
  description: z.string().nullable(),
  mode: teamModeValueSchema,
  ownerId: z.uuid(),
  createdAt: z.iso.datetime(),
  createdBy: z.uuid(),
  updatedAt: z.iso.datetime(),
  updatedBy: z.uuid(),
  membersCount: z.number().int().nonnegative(),
  /** The preferred alias; null while the team has none. */
  starAlias: z.string().nullable(),
  aliases: z.array(z.string()),
  logoUrl: z.string().nullable(),
  /** Whether uploads lose their GPS position before they are stored (owners and admins change it). */
  stripLocation: z.boolean(),
  /** Owners and admins must have a second factor to use the team (the owner changes it). */
  requireSecondFactor: z.boolean(),
});
export type Team = z.infer<typeof teamSchema>;

/** A row of GET /teams: the team plus the caller's role in it. */
export const teamListItemSchema = teamSchema.extend({ memberRole: memberRoleSchema });
export type TeamListItem = z.infer<typeof teamListItemSchema>;

export const teamListResponseSchema = z.object({
  teams: z.array(teamListItemSchema),
  pagination: paginationSchema,
});
export type TeamListResponse = z.infer<typeof teamListResponseSchema>;

export const createTeamResponseSchema = z.object({ teamId: z.uuid() });
export type CreateTeamResponse = z.infer<typeof createTeamResponseSchema>;

export const createAliasResponseSchema = z.object({ alias: z.string() });
export type CreateAliasResponse = z.infer<typeof createAliasResponseSchema>;

/** The team's fields a PATCH of /teams/{teamId} may change, by JSON pointer. */
export const TEAM_PATCH_FIELDS = [
  'name',
  'description',
  'mode',
  'starAlias',
  'stripLocation',
  'requireSecondFactor',
] as const;
export type TeamPatchField = (typeof TEAM_PATCH_FIELDS)[number];

/**
 * Spec §6, updateTeam: owners and admins change the team's details; which alias is preferred is
 * the owner's choice alone, as adding aliases is (createTeamAlias).
 */
export function canChangeTeamField(role: MemberRole, field: TeamPatchField): boolean {
  if (role === 'owner') return true;
  return role === 'admin' && field !== 'starAlias' && field !== 'requireSecondFactor';
}
