import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './unique-violation.js';

const index = { name: 'users_team_username', sqliteColumns: 'users.team_id, users.username' };
const message = 'UNIQUE constraint failed: users.team_id, users.username';

/** An error shaped as a driver throws it. */
function error(fields: Record<string, unknown>, text = message): Error {
  return Object.assign(new Error(text), fields);
}

describe('isUniqueViolation', () => {
  it('recognises PostgreSQL by the index it names', () => {
    expect(isUniqueViolation(error({ code: '23505', constraint: index.name }), index)).toBe(true);
    expect(isUniqueViolation(error({ code: '23505', constraint: 'other' }), index)).toBe(false);
  });

  it('recognises better-sqlite3 by its code and the columns in the message', () => {
    expect(isUniqueViolation(error({ code: 'SQLITE_CONSTRAINT_UNIQUE' }), index)).toBe(true);
    expect(
      isUniqueViolation(
        error({ code: 'SQLITE_CONSTRAINT_UNIQUE' }, 'UNIQUE constraint failed: users.email'),
        index,
      ),
    ).toBe(false);
  });

  it('recognises node:sqlite by its extended result code and the columns in the message', () => {
    const node = (errcode: number, text?: string) =>
      error({ code: 'ERR_SQLITE_ERROR', errcode, errstr: 'constraint failed' }, text);
    expect(isUniqueViolation(node(2067), index)).toBe(true);
    expect(isUniqueViolation(node(2067, 'UNIQUE constraint failed: users.email'), index)).toBe(
      false,
    );
    // SQLITE_CONSTRAINT_PRIMARYKEY (1555) names columns the same way; it is not a unique index.
    expect(isUniqueViolation(node(1555), index)).toBe(false);
  });

  it('ignores anything else', () => {
    expect(isUniqueViolation(null, index)).toBe(false);
    expect(isUniqueViolation('UNIQUE constraint failed', index)).toBe(false);
    expect(isUniqueViolation(error({ code: 'SQLITE_BUSY' }), index)).toBe(false);
  });
});
