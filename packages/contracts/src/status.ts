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

/** Liveness: the process answers. */
export const liveResponseSchema = z.object({ status: z.literal('ok') });
export type LiveResponse = z.infer<typeof liveResponseSchema>;

export const READINESS_PROBLEMS = ['database', 'storage', 'migrations', 'draining'] as const;
export type ReadinessProblem = (typeof READINESS_PROBLEMS)[number];

/** Readiness for a load balancer or a probe: 200 ready, 503 with what is not. */
export const readyResponseSchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  problems: z.array(z.enum(READINESS_PROBLEMS)),
});
export type ReadyResponse = z.infer<typeof readyResponseSchema>;
