import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** Makes `%`, `_` and `\` match themselves in a LIKE pattern (used with `escape '\'`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `value LIKE pattern ESCAPE '\'`. The ESCAPE clause is spelled out because SQLite has no default
 * escape character while PostgreSQL's is the backslash: without it the two databases disagree.
 */
export function likeEscaped(value: Expression<unknown>, pattern: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${value} like ${pattern} escape '\\'`;
}
