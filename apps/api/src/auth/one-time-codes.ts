import type { Db } from '../db/create-db.js';
import type { OneTimeCodePurpose } from '../db/database.js';
import { newId } from '../db/ids.js';
import { hashToken, randomToken } from './secrets.js';

/**
 * Codes sent in e-mailed links and OAuth redirects: 256 random bits, stored only as a hash,
 * single-use, expiring. Consuming one is a POST (mail scanners prefetch GET links).
 */
export async function createCode(
  db: Db,
  input: { userId: string; purpose: OneTimeCodePurpose; ttlMs: number; data?: unknown },
  nowMs: number,
): Promise<string> {
  const code = randomToken();
  await db
    .insertInto('one_time_codes')
    .values({
      id: newId(),
      user_id: input.userId,
      purpose: input.purpose,
      code_hash: hashToken(code),
      data: input.data === undefined ? null : JSON.stringify(input.data),
      expires_at: nowMs + input.ttlMs,
      used_at: null,
      created_at: nowMs,
    })
    .execute();
  return code;
}

export type CodeCheck =
  | { status: 'valid'; id: string; userId: string; data: unknown }
  | { status: 'expired' | 'used' | 'wrong' };

/**
 * Looks the code up by its hash (the hash comparison in the index is on a value the caller cannot
 * steer towards a match) and checks it belongs to `userId` when given.
 */
export async function checkCode(
  db: Db,
  code: string,
  purpose: OneTimeCodePurpose,
  nowMs: number,
  userId?: string,
): Promise<CodeCheck> {
  const row = await db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('code_hash', '=', hashToken(code))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (!row || (userId !== undefined && row.user_id !== userId)) return { status: 'wrong' };
  if (row.used_at !== null) return { status: 'used' };
  if (row.expires_at <= nowMs) return { status: 'expired' };
  return {
    status: 'valid',
    id: row.id,
    userId: row.user_id,
    data: row.data === null ? null : JSON.parse(row.data),
  };
}

/** Marks a code used; false when another request used it first. */
export async function consumeCode(db: Db, id: string, nowMs: number): Promise<boolean> {
  const res = await db
    .updateTable('one_time_codes')
    .set({ used_at: nowMs })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Older codes of the same purpose stop working when a new one is sent. */
export async function invalidateCodes(
  db: Db,
  userId: string,
  purpose: OneTimeCodePurpose,
  nowMs: number,
): Promise<void> {
  await db
    .updateTable('one_time_codes')
    .set({ used_at: nowMs })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}
