import type { TokenSet } from '@raccolta/contracts';
import type { AppContext } from '../context.js';
import type { Db } from '../db/create-db.js';
import type { SessionsTable, UsersTable } from '../db/database.js';
import { newId } from '../db/ids.js';
import { AppError } from '../errors/app-error.js';
import type { SessionDevice } from './devices.js';
import { hashToken, randomToken } from './secrets.js';
import { sendSecurityNotice } from './security-notices.js';
import { signTokens } from './tokens.js';

type SessionUser = Pick<
  UsersTable,
  'id' | 'email' | 'username' | 'email_verified' | 'token_version' | 'kind' | 'locale' | 'nickname'
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

/**
 * Whether a session opened on `label` is one from a new device: the user has earlier sessions
 * with a recorded device (live or ended; sessions from before devices were recorded do not
 * count), and none of them had this label. So the very first sign-in after sign-up is not new,
 * and neither is a browser update (labels carry no version). An unrecognised device (label '')
 * is one more device.
 */
async function isNewDevice(db: Db, userId: string, label: string): Promise<boolean> {
  const seen = await db
    .selectFrom('sessions')
    .select('device_label')
    .where('user_id', '=', userId)
    .where('device_label', 'is not', null)
    .groupBy('device_label')
    .execute();
  return seen.length > 0 && !seen.some((row) => row.device_label === label);
}

/**
 * A new session: access and ID tokens plus the first refresh token of a new family, and the
 * session's row with the device it was opened on (`device`; absent: not recorded). A sign-in from
 * a new device (isNewDevice) queues the newDevice security notice in the same transaction.
 */
export async function startSession(
  ctx: AppContext,
  user: SessionUser,
  opts: { identityProvider: boolean; device?: SessionDevice | undefined },
): Promise<TokenSet> {
  const now = ctx.clock();
  const familyId = newId();
  const ttlMs = ctx.config.auth.refreshTokenTtlMs;
  const device = opts.device;
  const RefreshToken = await ctx.db.transaction().execute(async (trx) => {
    const newDevice = device !== undefined && (await isNewDevice(trx, user.id, device.label));
    await trx
      .insertInto('sessions')
      .values({
        id: familyId,
        user_id: user.id,
        user_agent: device?.userAgent ?? null,
        device_label: device?.label ?? null,
        ip_hint: device?.ipHint ?? null,
        created_at: now,
        last_used_at: now,
        expires_at: now + ttlMs,
        revoked_at: null,
        authenticated_at: null,
      })
      .execute();
    const token = await storeRefreshToken(
      trx,
      { userId: user.id, familyId, identityProvider: opts.identityProvider, ttlMs },
      now,
    );
    if (newDevice) {
      await sendSecurityNotice({ ...ctx, db: trx }, user, 'newDevice', { device });
    }
    return token;
  });
  return { ...(await signTokens(ctx.config, user, now, familyId)), RefreshToken };
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
      await trx
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('id', '=', row.family_id)
        .where('revoked_at', 'is', null)
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
    await trx
      .updateTable('sessions')
      .set({ last_used_at: now, expires_at: now + ctx.config.auth.refreshTokenTtlMs })
      .where('id', '=', row.family_id)
      .execute();
    return { kind: 'ok' as const, user, next, familyId: row.family_id };
  });
  if (outcome.kind === 'reused') {
    ctx.logger.warn({ userId: outcome.userId }, 'refresh token reused: session family revoked');
  }
  if (outcome.kind !== 'ok') throw new AppError('invalidAuthorization');
  return {
    ...(await signTokens(ctx.config, outcome.user, now, outcome.familyId)),
    RefreshToken: outcome.next,
  };
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
    .updateTable('sessions')
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

/** The user's live sessions (not revoked, not expired), the most recently used first. */
export function listSessions(db: Db, userId: string, nowMs: number): Promise<SessionsTable[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', nowMs)
    .orderBy('last_used_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes live sessions and their refresh tokens; returns how many sessions ended. */
async function revokeSessionsWhere(
  db: Db,
  userId: string,
  nowMs: number,
  which: { only?: string; except?: string | undefined },
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let query = trx
      .updateTable('sessions')
      .set({ revoked_at: nowMs })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowMs);
    if (which.only !== undefined) query = query.where('id', '=', which.only);
    if (which.except !== undefined) query = query.where('id', '!=', which.except);
    const ended = await query.returning('id').execute();
    const ids = ended.map((row) => row.id);
    if (ids.length > 0) {
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: nowMs })
        .where('user_id', '=', userId)
        .where('family_id', 'in', ids)
        .where('revoked_at', 'is', null)
        .execute();
    }
    return ids.length;
  });
}

/**
 * Signs one session out: its refresh tokens stop working, and its access tokens too (they carry
 * the session id, checked on every request), while the user's other sessions go on. An id that
 * is no live session of this user → 404 notFound, whoever's it is.
 */
export async function revokeSession(
  db: Db,
  userId: string,
  sessionId: string,
  nowMs: number,
): Promise<void> {
  const ended = await revokeSessionsWhere(db, userId, nowMs, { only: sessionId });
  if (ended === 0) throw new AppError('notFound', { message: 'No such session' });
}

/** "Sign out everywhere else": every live session of the user but `keep` ends. */
export function revokeOtherSessions(
  db: Db,
  userId: string,
  keep: string | undefined,
  nowMs: number,
): Promise<number> {
  return revokeSessionsWhere(db, userId, nowMs, { except: keep });
}

/** Whether an access token's session is still live (not signed out). */
export async function isSessionRevoked(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('revoked_at')
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !row || row.revoked_at !== null;
}

/** How long an ended session stays listed in the history a new-device check reads. */
export const ENDED_SESSION_KEPT_MS = 30 * 24 * 60 * 60_000;

/**
 * Keeps the session tables from growing for ever. Refresh tokens past their expiry are refused
 * anyway (refreshSession), whether used or not, so they go. A session that ended (signed out or
 * expired) more than ENDED_SESSION_KEPT_MS ago goes too, unless it is the user's newest session
 * on its device: that one stays, so a later sign-in from the device is still known
 * (isNewDevice). Rows without a recorded device (from before devices were recorded) never count
 * as known and go. Idempotent: a retried run deletes nothing more.
 */
export async function purgeEndedSessions(
  db: Db,
  nowMs: number,
): Promise<{ refreshTokens: number; sessions: number }> {
  const tokens = await db
    .deleteFrom('refresh_tokens')
    .where('expires_at', '<=', nowMs)
    .executeTakeFirst();
  const cutoff = nowMs - ENDED_SESSION_KEPT_MS;
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<', cutoff),
        eb.and([eb('revoked_at', 'is not', null), eb('revoked_at', '<', cutoff)]),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb('device_label', 'is', null),
        eb.exists(
          eb
            .selectFrom('sessions as newer')
            .select('newer.id')
            .whereRef('newer.user_id', '=', 'sessions.user_id')
            .whereRef('newer.device_label', '=', 'sessions.device_label')
            .where((inner) =>
              inner.or([
                inner('newer.created_at', '>', inner.ref('sessions.created_at')),
                inner.and([
                  inner('newer.created_at', '=', inner.ref('sessions.created_at')),
                  inner('newer.id', '>', inner.ref('sessions.id')),
                ]),
              ]),
            ),
        ),
      ]),
    )
    .executeTakeFirst();
  return {
    refreshTokens: Number(tokens.numDeletedRows),
    sessions: Number(sessions.numDeletedRows),
  };
}

/**
 * When the session's owner last proved it was them: its last reauthentication, or its sign-in.
 * Null when the session is unknown or ended.
 */
export async function sessionAuthenticatedAt(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('sessions')
    .select(['created_at', 'authenticated_at', 'revoked_at'])
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) return null;
  return row.authenticated_at ?? row.created_at;
}

/** Records a reauthentication of a live session; false when it is no longer live. */
export async function markSessionAuthenticated(
  db: Db,
  userId: string,
  sessionId: string,
  nowMs: number,
): Promise<boolean> {
  const res = await db
    .updateTable('sessions')
    .set({ authenticated_at: nowMs })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
