/**
 * Column types that read back the same on SQLite and PostgreSQL: text ids, bigint epoch-ms
 * timestamps (parsed to numbers by the pg pool), smallint booleans, JSON as text.
 */
export const col = {
  id: 'text',
  timestamp: 'bigint',
  bool: 'smallint',
  json: 'text',
} as const;
