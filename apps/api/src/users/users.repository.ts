import type { Selectable } from 'kysely';
import type { Db } from '../db/create-db.js';
import type { UsersTable } from '../db/database.js';
import { newId } from '../db/ids.js';

export type UserRow = Selectable<UsersTable>;

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
}

/** A standard user's username, or an internal member's within its team. */
export function findUserByUsername(
  db: Db,
  username: string,
  teamId: string | null,
): Promise<UserRow | undefined> {
  let q = db.selectFrom('users').selectAll().where('username', '=', username.toLowerCase());
  q = teamId === null ? q.where('team_id', 'is', null) : q.where('team_id', '=', teamId);
  return q.executeTakeFirst();
}

export interface NewUser {
  email: string | null;
  emailVerified: boolean;
  username: string;
  kind: UserRow['kind'];
  teamId: string | null;
  nickname: string | null;
  firstName?: string | null;
  lastName?: string | null;
  passwordHash: string | null;
  passwordChangeRequired?: boolean;
  scope: UserRow['scope'];
  locale: string;
  signUpMethod: string;
}

export async function insertUser(db: Db, input: NewUser, nowMs: number): Promise<UserRow> {
  const row = userRow(input, nowMs);
  await db.insertInto('users').values(row).execute();
  return row;
}

function userRow(input: NewUser, nowMs: number): UserRow {
  return {
    id: newId(),
    email: input.email?.toLowerCase() ?? null,
    email_verified: input.emailVerified ? 1 : 0,
    username: input.username.toLowerCase(),
    kind: input.kind,
    team_id: input.teamId,
    nickname: input.nickname,
    first_name: input.firstName ?? null,
    last_name: input.lastName ?? null,
    avatar_url: null,
    password_hash: input.passwordHash,
    password_change_required: input.passwordChangeRequired ? 1 : 0,
    scope: input.scope,
    locale: input.locale,
    sign_up_method: input.signUpMethod,
    token_version: 0,
    created_at: nowMs,
    updated_at: nowMs,
  };
}

/**
 * Inserts a standard user under a username made from the e-mail (uniqueUsernameFor). Concurrent
 * inserts cannot fail on a unique index: the insert skips on any conflict, and then either the
 * e-mail is taken (undefined: the caller answers as for an existing account) or the username was
 * taken meanwhile, and the next free one is tried. PostgreSQL waits for the conflicting
 * transaction before skipping, so the retry sees its row.
 */
export async function insertStandardUser(
  db: Db,
  input: Omit<NewUser, 'username' | 'kind' | 'teamId'> & { email: string },
  nowMs: number,
): Promise<UserRow | undefined> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const username = await uniqueUsernameFor(db, input.email);
    const row = userRow({ ...input, username, kind: 'standard', teamId: null }, nowMs);
    const inserted = await db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return row;
    if (await findUserByEmail(db, input.email)) return undefined;
  }
  throw new Error(`no free username for ${input.email} after 10 attempts`);
}

/**
 * A readable, unique username for a standard user, from the e-mail's local part: letters, digits
 * and dots (the username rule), then a number when taken.
 */
export async function uniqueUsernameFor(db: Db, email: string): Promise<string> {
  const local = email.split('@')[0] ?? '';
  const base =
    local
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '.')
      .replace(/\.{2,}/g, '.')
      .replace(/^\.+|\.+$/g, '')
      .slice(0, 40) || 'user';
  const padded = base.length >= 3 ? base : `${base}.user`;
  const taken = await db
    .selectFrom('users')
    .select('username')
    .where('team_id', 'is', null)
    .where((eb) => eb.or([eb('username', '=', padded), eb('username', 'like', `${padded}.%`)]))
    .execute();
  const names = new Set(taken.map((r) => r.username));
  if (!names.has(padded)) return padded;
  for (let n = 2; ; n++) {
    const candidate = `${padded}.${n}`;
    if (!names.has(candidate)) return candidate;
  }
}

/** The profile's names; the row as it is after the change, or undefined when it is gone. */
export function updateUserNames(
  db: Db,
  id: string,
  names: { firstName: string | null; lastName: string | null; nickname: string | null },
  nowMs: number,
): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({
      first_name: names.firstName,
      last_name: names.lastName,
      nickname: names.nickname,
      updated_at: nowMs,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
