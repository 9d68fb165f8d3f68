import type { ErrorCode } from '@raccolta/contracts';

/**
 * Validation message keys of one field whose refusal has an error code of its own (spec §8:
 * "invalid input of that kind"), answered instead of invalidInput wherever that field is refused:
 * by a route's schema (http/error-handler.ts) or inside a service (a JSON patch's value).
 */
const TEAM_NAME = { code: 'invalidTeamName', message: 'The team name is not valid' } as const;
const FIELD_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  teamNameRequired: TEAM_NAME,
  teamNameShort: TEAM_NAME,
  teamNameLong: TEAM_NAME,
};

/** The code of its own of the first refused field that has one, e.g. invalidTeamName. */
export function fieldError(
  messages: readonly string[] | undefined,
): { code: ErrorCode; message: string } | undefined {
  for (const key of messages ?? []) {
    const found = FIELD_ERRORS[key];
    if (found) return found;
  }
  return undefined;
}
