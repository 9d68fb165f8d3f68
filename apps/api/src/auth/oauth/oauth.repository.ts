import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { OauthTransactionsTable, UserIdentitiesTable } from '../../db/database.js';

export type OauthTransactionRow = Selectable<OauthTransactionsTable>;

export async function insertTransaction(db: Db, row: OauthTransactionRow): Promise<void> {
  await db.insertInto('oauth_transactions').values(row).execute();
}

/**
 * Takes (deletes and returns) the unexpired transaction named by both the provider's state and the
 * browser's cookie: one statement, so two requests racing with the same callback get it once.
 */
export function takeTransaction(
  db: Db,
  key: { id: string; providerState: string; provider: string },
  nowMs: number,
): Promise<OauthTransactionRow | undefined> {
  return db
    .deleteFrom('oauth_transactions')
    .where('id', '=', key.id)
    .where('provider_state', '=', key.providerState)
    .where('provider', '=', key.provider)
    .where('expires_at', '>', nowMs)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteExpiredTransactions(db: Db, nowMs: number): Promise<number> {
  const res = await db
    .deleteFrom('oauth_transactions')
    .where('expires_at', '<=', nowMs)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** OAuth codes live a minute; once expired they can only ever answer 401, so they go. */
export async function deleteExpiredOauthCodes(db: Db, nowMs: number): Promise<number> {
  const res = await db
    .deleteFrom('one_time_codes')
    .where('purpose', '=', 'oauth_code')
    .where('expires_at', '<=', nowMs)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

export function findIdentity(
  db: Db,
  provider: string,
  subject: string,
): Promise<Selectable<UserIdentitiesTable> | undefined> {
  return db
    .selectFrom('user_identities')
    .selectAll()
    .where('provider', '=', provider)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export async function insertIdentity(
  db: Db,
  input: { provider: string; subject: string; userId: string; email: string },
  nowMs: number,
): Promise<void> {
  await db
    .insertInto('user_identities')
    .values({
      provider: input.provider,
      subject: input.subject,
      user_id: input.userId,
      email: input.email,
      created_at: nowMs,
    })
    .execute();
}
