import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db, DbKind } from '../db/create-db.js';
import type { TeamMembersTable } from '../db/database.js';
import { paginate, type Page } from '../db/pagination.js';
import { likeEscaped } from '../db/like.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { nicknameKey, nicknamePrefixPattern } from './nickname.js';

/** Every query here is scoped by teamId: a member id of another team finds nothing. */

export type MemberRow = Selectable<TeamMembersTable>;

/** A membership row with what the member's account adds to it (username, avatar). */
export type MemberView = MemberRow & {
  user_username: string;
  user_nickname: string | null;
  user_email: string | null;
  user_avatar_url: string | null;
};

/** Members who rejected or left keep their row but give up their name. */
const FORMER_STATUSES = ['rejected', 'left'] as const;

export const NICKNAME_INDEX = {
  name: 'team_members_nickname_key_idx',
  sqliteColumns: 'team_members.team_id, team_members.nickname_key',
};

export function isNicknameViolation(err: unknown): boolean {
  return isUniqueViolation(err, NICKNAME_INDEX);
}

/** The folded nickname as stored, or as lower() reads it where another module left it unset. */
const storedKey = sql<string>`coalesce(team_members.nickname_key, lower(team_members.nickname))`;

function selectMembers(db: Db) {
  return db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .selectAll('team_members')
    .select([
      'users.username as user_username',
      'users.nickname as user_nickname',
      'users.email as user_email',
      'users.avatar_url as user_avatar_url',
    ]);
}

export function findMember(
  db: Db,
  teamId: string,
  userId: string,
): Promise<MemberView | undefined> {
  return selectMembers(db)
    .where('team_members.team_id', '=', teamId)
    .where('team_members.user_id', '=', userId)
    .executeTakeFirst();
}

/** Oldest first, then by id: a stable order in which new members appear at the end. */
export function listMembers(
  db: Db,
  teamId: string,
  opts: { prefix?: string | undefined; limit?: number; lastKey?: string | undefined },
): Promise<Page<MemberView>> {
  let query = selectMembers(db).where('team_members.team_id', '=', teamId);
  const prefix = opts.prefix?.trimStart();
  if (prefix) {
    query = query.where(likeEscaped(storedKey, nicknamePrefixPattern(prefix)));
  }
  return paginate(query, {
    sortColumn: 'team_members.created_at',
    idColumn: 'team_members.user_id',
    sortValue: (row) => row.created_at,
    id: (row) => row.user_id,
    direction: 'asc',
    limit: opts.limit,
    lastKey: opts.lastKey,
  });
}

/**
 * Reads and locks membership rows for the rest of the transaction, in user-id order so two
 * transactions locking the same pair cannot deadlock. SQLite has no row locks: its transactions
 * already run one at a time.
 */
export async function lockMembers(
  trx: Db,
  kind: DbKind,
  teamId: string,
  userIds: string[],
): Promise<Map<string, MemberRow>> {
  const query = trx
    .selectFrom('team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', 'in', userIds)
    .orderBy('user_id');
  const rows = await (kind === 'postgres' ? query.forUpdate() : query).execute();
  return new Map(rows.map((row) => [row.user_id, row]));
}

/** Whether another current member of the team already goes by this name, ignoring case. */
export async function isNicknameTaken(
  db: Db,
  teamId: string,
  nickname: string,
  exceptUserId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', teamId)
    .where('status', 'not in', FORMER_STATUSES)
    .where(sql<boolean>`${storedKey} = ${nicknameKey(nickname)}`);
  if (exceptUserId !== undefined) query = query.where('user_id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

export type NewMember = Omit<Insertable<TeamMembersTable>, 'nickname_key'> & { nickname: string };

export async function insertMember(db: Db, row: NewMember): Promise<void> {
  await db
    .insertInto('team_members')
    .values({ ...row, nickname_key: nicknameKey(row.nickname) })
    .execute();
}

export type MemberChanges = Omit<
  Updateable<TeamMembersTable>,
  'team_id' | 'user_id' | 'nickname_key'
>;

/** Updates a member; a new nickname brings its folded key along. */
export async function updateMember(
  db: Db,
  teamId: string,
  userId: string,
  changes: MemberChanges,
): Promise<void> {
  const { nickname } = changes;
  await db
    .updateTable('team_members')
    .set({
      ...changes,
      ...(typeof nickname === 'string' ? { nickname_key: nicknameKey(nickname) } : {}),
    })
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(db: Db, teamId: string, userId: string): Promise<void> {
  await db
    .deleteFrom('team_members')
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .execute();
}

export async function countMemberships(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('team_members')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
