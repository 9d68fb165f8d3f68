import { randomInt } from 'node:crypto';
import type { Db } from '../db/create-db.js';

/**
 * A team's short code: what internal contributors type at sign-in, often read out or typed on a
 * phone. Seven characters of an alphabet without 0/O, 1/I/L (31 symbols, 27 billion codes), stored
 * in capitals and matched without regard to case. Ids and aliases keep working beside it.
 */
export const TEAM_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const TEAM_CODE_LENGTH = 7;
const TEAM_CODE = new RegExp(`^[${TEAM_CODE_ALPHABET}]{${TEAM_CODE_LENGTH}}$`);

export function generateTeamCode(): string {
  let code = '';
  for (let i = 0; i < TEAM_CODE_LENGTH; i++) {
    code += TEAM_CODE_ALPHABET.charAt(randomInt(TEAM_CODE_ALPHABET.length));
  }
  return code;
}

/** The stored form of what someone typed, or null when it cannot be a team code. */
export function teamCodeOf(ref: string): string | null {
  const code = ref.trim().toUpperCase();
  return TEAM_CODE.test(code) ? code : null;
}

/**
 * A code no team has and no alias spells: with 27 billion codes a second draw is already rare.
 * Two teams created at the same instant with the same draw meet the unique index instead.
 */
export async function unusedTeamCode(db: Db): Promise<string> {
  for (;;) {
    const code = generateTeamCode();
    const taken = await db
      .selectFrom('teams')
      .select('id')
      .where('code', '=', code)
      .union(
        db
          .selectFrom('team_aliases')
          .select('team_id as id')
          .where('alias', '=', code.toLowerCase()),
      )
      .executeTakeFirst();
    if (!taken) return code;
  }
}
