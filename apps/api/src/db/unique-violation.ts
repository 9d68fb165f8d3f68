/** SQLite's extended result code for a unique constraint failure (SQLITE_CONSTRAINT_UNIQUE). */
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/**
 * Whether `err` is the violation of one unique index. PostgreSQL names the index; SQLite names its
 * columns ("UNIQUE constraint failed: users.team_id, users.username"), so both are given. The two
 * SQLite drivers say it differently: better-sqlite3 with `code: 'SQLITE_CONSTRAINT_UNIQUE'`,
 * node:sqlite with `code: 'ERR_SQLITE_ERROR'` and the extended result code in `errcode`; the
 * message is SQLite's own in both.
 */
export function isUniqueViolation(
  err: unknown,
  index: { name: string; sqliteColumns: string },
): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; errcode?: unknown; constraint?: unknown; message?: unknown };
  if (e.code === '23505') return e.constraint === index.name;
  const sqliteUnique =
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    (e.code === 'ERR_SQLITE_ERROR' && e.errcode === SQLITE_CONSTRAINT_UNIQUE);
  return (
    sqliteUnique && typeof e.message === 'string' && e.message.endsWith(`: ${index.sqliteColumns}`)
  );
}
