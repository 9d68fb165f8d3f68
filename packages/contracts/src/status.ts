import { z } from 'zod';

/** What `GET /status` checks; a `degraded` answer lists those that failed in `problems`. */
export const STATUS_PROBLEMS = ['database', 'storage'] as const;
export type StatusProblem = (typeof STATUS_PROBLEMS)[number];

export const statusResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  /** English, for people reading the API directly; the web app words it from the fields. */
  message: z.string(),
  problems: z.array(z.enum(STATUS_PROBLEMS)).optional(),
  timestamp: z.string(),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;
