import { z } from 'zod';

export const statusResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  message: z.string(),
  timestamp: z.string(),
});
export type StatusResponse = z.infer<typeof statusResponseSchema>;
