import { z } from 'zod';

export const PAGE_SIZE = 20;

const INVALID = { error: 'invalidInput', abort: true } as const;

/** Query of every paged list; failures carry the invalidInput message key like other inputs. */
export const pageQuerySchema = z.object(
  {
    limit: z.coerce
      .number({ error: 'invalidInput' })
      .int(INVALID)
      .min(1, INVALID)
      .max(PAGE_SIZE, INVALID)
      .default(PAGE_SIZE),
    lastKey: z
      .string({ error: 'invalidInput' })
      .min(1, INVALID)
      .max(512, INVALID)
      .regex(/^[A-Za-z0-9_-]+$/, INVALID)
      .optional(),
  },
  { error: 'invalidInput' },
);
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const paginationSchema = z.object({ lastKey: z.string().nullable() });
