/**
 * Text folded for case-insensitive comparison and search, the same on SQLite and PostgreSQL:
 * NFC, runs of white space as one space, lower case by JavaScript's full Unicode rules. The
 * databases' own lower() differ (SQLite folds only ASCII), so folded keys are computed here and
 * stored (team_members.nickname_key, teams.name_key).
 */
export function foldText(value: string): string {
  return value.normalize('NFC').replace(/\s+/g, ' ').toLowerCase();
}
