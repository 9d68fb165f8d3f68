import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export * from './error-codes.js';
export * from './duplicate-kinds.js';

export const errorCodeSchema = z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]);

/** The body of every error the API answers with. */
export const errorBodySchema = z.object({
  statusCode: z.number().int(),
  errorCode: errorCodeSchema,
  message: z.string(),
  requestId: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
