import type { TokenSet } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import type { UsersTable } from '../db/database.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import { hashToken, randomToken } from './secrets.js';
import { signTokens } from './tokens.js';

type SessionUser = Pick<
  UsersTable,
  'id' | 'email' | 'username' | 'email_verified' | 'token_version'
>;

async function storeRefreshToken(
  db: Db,
  input: { userId: string; familyId: string; identityProvider: boolean; ttlMs: number },
  nowMs: number,
): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('refresh_tokens')
    .values({
      id: newId(),
      family_id: input.familyId,
      user_id: input.userId,
      token_hash: hashToken(token),
      identity_provider: input.identityProvider ? 1 : 0,
      expires_at: nowMs + input.ttlMs,
      used_at: null,
      revoked_at: null,
      created_at: nowMs,
    })
    .execute();
  return token;
}

/** A new session: access and ID tokens plus the first refresh token of a new family. */
export async function startSession(
  ctx: AppContext,
  user: SessionUser,
  opts: { identityProvider: boolean },
): Promise<TokenSet> {
  const now = ctx.clock();
  const RefreshToken = await storeRefreshToken(
    ctx.db,
    {
      userId: user.id,
      familyId: newId(),
      identityProvider: opts.identityProvider,
      ttlMs: ctx.config.auth.refreshTokenTtlMs,
    },
    now,
  );
  return { ...(await signTokens(ctx.config, user, now)), RefreshToken };
}

/**
 * Rotates a refresh token: the presented one is used up and a new one of the same family issued.
 * Presenting a token that was already used means it was copied: the whole family is revoked and
 * the user's token version bumped, so every access token issued so far is refused too.
 */
export async function refreshSession(ctx: AppContext, refreshToken: string): Promise<TokenSet> {
  const now = ctx.clock();
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(refreshToken))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.expires_at <= now)
      return { kind: 'invalid' as const };
    const claimed = await trx
      .updateTable('refresh_tokens')
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('family_id', '=', row.family_id)
        .execute();
      // Whoever holds the copy may also hold access tokens of the family: they end too.
      await trx
        .updateTable('users')
        .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: now }))
        .where('id', '=', row.user_id)
        .execute();
      return { kind: 'reused' as const, userId: row.user_id };
    }
    const user = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', row.user_id)
      .executeTakeFirst();
    if (!user) return { kind: 'invalid' as const };
    const next = await storeRefreshToken(
      trx,
      {
        userId: user.id,
        familyId: row.family_id,
        identityProvider: row.identity_provider === 1,
        ttlMs: ctx.config.auth.refreshTokenTtlMs,
      },
      now,
    );
    return { kind: 'ok' as const, user, next };
  });
  if (outcome.kind === 'reused') {
    ctx.logger.warn({ userId: outcome.userId }, 'refresh token reused: session family revoked');
  }
  if (outcome.kind !== 'ok') throw new AppError('invalidAuthorization');
  return { ...(await signTokens(ctx.config, outcome.user, now)), RefreshToken: outcome.next };
}

/** Ends every session of a user: refresh tokens revoked, access tokens refused from now on. */
export async function revokeAllSessions(db: Db, userId: string, nowMs: number): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: nowMs })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: nowMs }))
    .where('id', '=', userId)
    .execute();
}
