import { z } from 'zod';

/** Aliases per plan and invitations. */
export const teamsEnv = z.object({
  PLAN_FREE_ALIASES: z.coerce.number().int().min(0).default(1),
  PLAN_PRO_ALIASES: z.coerce.number().int().min(0).default(3),
  PLAN_PREMIUM_ALIASES: z.coerce.number().int().min(0).default(10),
  INVITATION_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** Invitations (and resends) one user may send a day, and one address may receive a day. */
  INVITATIONS_PER_INVITER_PER_DAY: z.coerce.number().int().min(1).default(50),
  INVITATIONS_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).default(5),
});

export function teamsConfig(e: z.output<typeof teamsEnv>) {
  return {
    teams: {
      aliasLimits: {
        free: e.PLAN_FREE_ALIASES,
        pro: e.PLAN_PRO_ALIASES,
        premium: e.PLAN_PREMIUM_ALIASES,
      },
      invitationTtlMs: e.INVITATION_TTL_DAYS * 24 * 60 * 60_000,
      invitationLimits: {
        perInviterPerDay: e.INVITATIONS_PER_INVITER_PER_DAY,
        perRecipientPerDay: e.INVITATIONS_PER_RECIPIENT_PER_DAY,
      },
    },
  };
}
