import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './error-codes.js';

export * from './error-codes.js';

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

/**
 * What a 409 `alreadyExists` found taken, in `data.duplicate`, so the message can say it: the
 * invited address is already a member's, or the caller's own; the alias is another team's (or
 * this one's); the internal username is taken in the team.
 */
export const DUPLICATE_KINDS = ['member', 'self', 'alias', 'username'] as const;
export type DuplicateKind = (typeof DUPLICATE_KINDS)[number];

export function isDuplicateKind(value: unknown): value is DuplicateKind {
  return typeof value === 'string' && (DUPLICATE_KINDS as readonly string[]).includes(value);
}
