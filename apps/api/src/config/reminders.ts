import { DEFAULT_REMINDER_DAYS } from '@raccolta/contracts';
import { z } from 'zod';
import { csv } from './env.js';

/** Reminder e-mails before a collection's deadline (issue #36). */
export const remindersEnv = z.object({
  /**
   * Days before a deadline a reminder goes to the members who can upload and have uploaded
   * nothing, comma-separated (1–60 each); default 3,1.
   */
  REMINDER_DAYS: csv
    .pipe(z.array(z.coerce.number<string>().int().min(1).max(60)).min(1).max(10))
    .default([...DEFAULT_REMINDER_DAYS]),
});

export function remindersConfig(e: z.output<typeof remindersEnv>) {
  return {
    /** REMINDER_DAYS, each once, largest first. */
    reminderDays: [...new Set(e.REMINDER_DAYS)].sort((a, b) => b - a),
  };
}
