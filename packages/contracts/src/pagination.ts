import { z } from 'zod';

export const PAGE_SIZE = 20;

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE).default(PAGE_SIZE),
  lastKey: z.string().min(1).max(512).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const paginationSchema = z.object({ lastKey: z.string().nullable() });
