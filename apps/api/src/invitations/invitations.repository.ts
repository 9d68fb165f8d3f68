import type { Selectable } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { OneTimeCodesTable } from '../db/database.js';

/** The statements of invitations: their one-time codes, the invited member, the mail's job. */

export type InvitationCodeRow = Selectable<OneTimeCodesTable>;

export function findInvitationCode(
  db: Db,
  codeHash: string,
): Promise<InvitationCodeRow | undefined> {
  return db
    .selectFrom('one_time_codes')
    .selectAll()
    .where('code_hash', '=', codeHash)
    .where('purpose', '=', 'invitation')
    .executeTakeFirst();
}

/**
 * Moves an invited member to `status`; false when the member was no longer invited (someone
 * answered first).
 */
export async function closeInvitedMember(
  db: Db,
  teamId: string,
  userId: string,
  status: 'active' | 'rejected',
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('team_members')
    .set({
      status,
      joined_at: status === 'active' ? now : null,
      invite_expires_at: null,
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .where('status', '=', 'invited')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Gives an account made by an invitation its first password; false when it has one already
 * (completed meanwhile through another team's invitation).
 */
export async function setFirstPassword(
  db: Db,
  userId: string,
  passwordHash: string,
  now: number,
): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ password_hash: passwordHash, email_verified: 1, updated_at: now })
    .where('id', '=', userId)
    .where('password_hash', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Deletes the user's invitation codes whose data names this team. */
export async function deleteInvitationCodesOf(
  db: Db,
  userId: string,
  teamData: string,
): Promise<void> {
  await db
    .deleteFrom('one_time_codes')
    .where('user_id', '=', userId)
    .where('purpose', '=', 'invitation')
    .where('data', '=', teamData)
    .execute();
}

export function findMailJob(
  db: Db,
  jobId: string,
): Promise<{ status: string; last_error: string | null } | undefined> {
  return db
    .selectFrom('jobs')
    .select(['status', 'last_error'])
    .where('id', '=', jobId)
    .executeTakeFirst();
}
