import { z } from 'zod';

/** The team's trash. */
export const trashEnv = z.object({
  /** How long a deleted file or collection stays in the team's trash before it is purged. */
  TRASH_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
});

export function trashConfig(e: z.output<typeof trashEnv>) {
  return {
    /** Days a deleted file or collection stays restorable (TRASH_DAYS). */
    trashDays: e.TRASH_DAYS,
  };
}
