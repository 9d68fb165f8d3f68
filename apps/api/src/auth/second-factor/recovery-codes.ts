import { randomInt } from 'node:crypto';
import type { Db } from '../../db/create-db.js';
import { newId } from '../../db/ids.js';
import { hashToken } from '../secrets.js';

const COUNT = 10;
// No 0/o, 1/l/i: codes are read off paper.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function hashOf(userId: string, normalized: string): string {
  return hashToken(`recovery:${userId}:${normalized}`);
}

/** Lower case, no spaces or dashes: how codes are stored and compared. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}

/** Replaces every recovery code of the user with 10 new ones, answered once (xxxxx-xxxxx). */
export async function replaceRecoveryCodes(
  db: Db,
  userId: string,
  nowMs: number,
): Promise<string[]> {
  const codes = Array.from({ length: COUNT }, () => {
    const raw = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(
      codes.map((code) => ({
        id: newId(),
        user_id: userId,
        code_hash: hashOf(userId, normalizeRecoveryCode(code)),
        used_at: null,
        created_at: nowMs,
      })),
    )
    .execute();
  return codes;
}

/** Uses up a recovery code; false when it is not one of the user's unused codes. */
export async function useRecoveryCode(
  db: Db,
  userId: string,
  code: string,
  nowMs: number,
): Promise<boolean> {
  const res = await db
    .updateTable('recovery_codes')
    .set({ used_at: nowMs })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashOf(userId, normalizeRecoveryCode(code)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function countRecoveryCodes(
  db: Db,
  userId: string,
): Promise<{ total: number; left: number }> {
  const rows = await db
    .selectFrom('recovery_codes')
    .select(['used_at'])
    .where('user_id', '=', userId)
    .execute();
  return { total: rows.length, left: rows.filter((row) => row.used_at === null).length };
}
