/**
 * Whether `err` is the violation of one unique index. PostgreSQL names the index; SQLite names its
 * columns ("UNIQUE constraint failed: users.team_id, users.username"), so both are given.
 */
export function isUniqueViolation(
  err: unknown,
  index: { name: string; sqliteColumns: string },
): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code === '23505') return e.constraint === index.name;
  return (
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    typeof e.message === 'string' &&
    e.message.endsWith(`: ${index.sqliteColumns}`)
  );
}
