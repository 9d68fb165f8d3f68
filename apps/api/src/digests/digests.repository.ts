import type { MemberRole } from '@raccolta/contracts';
import { sql, type SqlBool } from 'kysely';
import type { Db, DbKind } from '../db/create-db.js';
import type { DigestFrequency } from '@raccolta/contracts';

export interface DigestRow {
  frequency: DigestFrequency | null;
  cursor_at: number | null;
  cursor_id: string | null;
  sent_at: number | null;
}

/** An active member with an e-mail address, with their digest row's values (null: no row). */
export interface DigestCandidate extends DigestRow {
  team_id: string;
  team_name: string;
  user_id: string;
  role: MemberRole;
  email: string;
  locale: string;
  name: string;
  joined_at: number | null;
  member_created_at: number;
}

export function findDigest(db: Db, teamId: string, userId: string): Promise<DigestRow | undefined> {
  return db
    .selectFrom('member_digests')
    .select(['frequency', 'cursor_at', 'cursor_id', 'sent_at'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Makes the row if missing, then reads it; locked until the transaction ends on PostgreSQL. */
export async function lockDigest(
  trx: Db,
  kind: DbKind,
  teamId: string,
  userId: string,
  now: number,
): Promise<DigestRow> {
  await trx
    .insertInto('member_digests')
    .values({ team_id: teamId, user_id: userId, updated_at: now })
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
  const query = trx
    .selectFrom('member_digests')
    .select(['frequency', 'cursor_at', 'cursor_id', 'sent_at'])
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId);
  return (kind === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
}

export async function setDigestFrequency(
  db: Db,
  teamId: string,
  userId: string,
  frequency: DigestFrequency,
  now: number,
): Promise<void> {
  await db
    .insertInto('member_digests')
    .values({ team_id: teamId, user_id: userId, frequency, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['team_id', 'user_id']).doUpdateSet({ frequency, updated_at: now }),
    )
    .execute();
}

export async function moveDigestCursor(
  db: Db,
  teamId: string,
  userId: string,
  cursor: { at: number; id: string },
  sentAt: number | null,
  now: number,
): Promise<void> {
  await db
    .updateTable('member_digests')
    .set({
      cursor_at: cursor.at,
      cursor_id: cursor.id,
      ...(sentAt === null ? {} : { sent_at: sentAt }),
      updated_at: now,
    })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Active members with a verified e-mail address, in every team, with their digest rows. Internal
 * contributors have no address and are never among them.
 */
export function listDigestCandidates(db: Db): Promise<DigestCandidate[]> {
  return db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .leftJoin('member_digests', (join) =>
      join
        .onRef('member_digests.team_id', '=', 'team_members.team_id')
        .onRef('member_digests.user_id', '=', 'team_members.user_id'),
    )
    .select((eb) => [
      'team_members.team_id',
      'teams.name as team_name',
      'team_members.user_id',
      'team_members.role',
      'team_members.joined_at',
      'team_members.created_at as member_created_at',
      'users.locale',
      eb.fn.coalesce('users.email', sql<string>`''`).as('email'),
      eb.fn.coalesce('team_members.nickname', 'users.nickname', 'users.username').as('name'),
      'member_digests.frequency',
      'member_digests.cursor_at',
      'member_digests.cursor_id',
      'member_digests.sent_at',
    ])
    .where('team_members.status', '=', 'active')
    .where('users.kind', '=', 'standard')
    .where('users.email', 'is not', null)
    .where('users.email_verified', '=', 1)
    .orderBy('team_members.team_id')
    .orderBy('team_members.user_id')
    .execute();
}

export interface NewFileRow {
  id: string;
  name: string;
  collection_id: string;
  collection_name: string;
  collection_mode: 'owned' | 'collaborative';
  collection_created_by: string;
  uploaded_by: string;
  rendition_status: string;
  created_at: number;
}

/**
 * The team's files after the cursor and up to `until`, oldest first, at most `limit`
 * (files_team_created_idx). All of the team's: the service keeps those the member can see.
 */
export function listFilesAfter(
  db: Db,
  teamId: string,
  cursor: { at: number; id: string },
  until: number,
  limit: number,
): Promise<NewFileRow[]> {
  return db
    .selectFrom('files')
    .innerJoin('collections', 'collections.id', 'files.collection_id')
    .select([
      'files.id',
      'files.name',
      'files.collection_id',
      'collections.name as collection_name',
      'collections.mode as collection_mode',
      'collections.created_by as collection_created_by',
      'files.uploaded_by',
      'files.rendition_status',
      'files.created_at',
    ])
    .where('files.team_id', '=', teamId)
    .where(
      sql<SqlBool>`(${sql.ref('files.created_at')} > ${cursor.at} or (${sql.ref('files.created_at')} = ${cursor.at} and ${sql.ref('files.id')} > ${cursor.id}))`,
    )
    .where('files.created_at', '<=', until)
    .orderBy('files.created_at')
    .orderBy('files.id')
    .limit(limit)
    .execute();
}
