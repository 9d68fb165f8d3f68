import {
  RECENT_SIGN_IN_MS,
  type ReauthenticationMethod,
  type RecoveryCodesResponse,
  type SecondFactorsResponse,
  type TokenSet,
  type TotpEnrolmentResponse,
} from '@raccolta/contracts';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/create-db.js';
import { AppError } from '../../errors/app-error.js';
import { findUserById, type UserRow } from '../../users/users.repository.js';
import { checkCode, consumeCode, createCode } from '../one-time-codes.js';
import { verifyPassword } from '../passwords.js';
import { clear, reserve } from '../rate-limiter.js';
import type { SessionDevice } from '../devices.js';
import { sendSecurityNotice } from '../security-notices.js';
import { markSessionAuthenticated, sessionAuthenticatedAt, startSession } from '../sessions.js';
import {
  authenticationOptions,
  listPasskeys,
  registerPasskey,
  registrationOptions,
  verifyPasskey,
} from './passkeys.js';
import { factorsOf, hasSecondFactor } from './factors.js';
import { countRecoveryCodes, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.js';
import { encryptSecret, findTotp, newTotpSecret, useTotpCode } from './totp.js';

/** The sign-in second step must be answered within this. */
const SECOND_FACTOR_TTL_MS = 5 * 60_000;

/** Wrong codes count against the same per-account limit as wrong passwords. */
function accountKey(userId: string): string {
  return `signin:user:${userId}`;
}

type Actor = Pick<
  UserRow,
  'id' | 'kind' | 'email' | 'username' | 'nickname' | 'password_hash' | 'locale'
>;

/** Internal contributors have no e-mail to recover an account with: they cannot enrol. */
function assertMayEnrol(user: Pick<UserRow, 'kind'>): void {
  if (user.kind === 'internal') throw new AppError('secondFactorNotAllowed');
}

/**
 * Called where a sign-in would start a session: an account with a second factor gets the
 * secondFactorRequired error instead, with a one-time challenge bound to it.
 */
export async function requireSecondStep(
  ctx: AppContext,
  user: Pick<UserRow, 'id'>,
  opts: { identityProvider: boolean },
): Promise<void> {
  const methods = await factorsOf(ctx.db, user.id);
  if (methods.length === 0) return;
  const now = ctx.clock();
  const challenge = await createCode(
    ctx.db,
    {
      userId: user.id,
      purpose: 'second_factor',
      ttlMs: SECOND_FACTOR_TTL_MS,
      data: { identityProvider: opts.identityProvider },
    },
    now,
  );
  const { left } = await countRecoveryCodes(ctx.db, user.id);
  const webauthn = methods.includes('webauthn')
    ? await authenticationOptions(ctx, user.id)
    : undefined;
  throw new AppError('secondFactorRequired', {
    data: {
      challenge,
      methods: left > 0 ? [...methods, 'recovery'] : methods,
      ...(webauthn ? { webauthn } : {}),
    },
  });
}

export interface SecondFactorInput {
  challenge: string;
  totp?: string | undefined;
  recoveryCode?: string | undefined;
  webauthn?: Record<string, unknown> | undefined;
}

/**
 * POST /auth/second-factor. The attempt is counted against the account's sign-in limit before
 * the code is checked, and the counter is cleared on success; the challenge is used up only by a
 * right answer, so a mistyped code can be tried again within the limit and the 5 minutes.
 */
export async function completeSecondFactor(
  ctx: AppContext,
  input: SecondFactorInput,
  device?: SessionDevice,
): Promise<TokenSet> {
  const now = ctx.clock();
  const check = await checkCode(ctx.db, input.challenge, 'second_factor', now);
  if (check.status === 'expired') throw new AppError('expiredToken');
  if (check.status !== 'valid') throw new AppError('notAuthorized');
  const user = await findUserById(ctx.db, check.userId);
  if (!user) throw new AppError('notAuthorized');
  const { auth } = ctx.config;
  const key = accountKey(user.id);
  if (
    !(await reserve(ctx.db, key, auth.signinMaxFailuresPerAccount, auth.signinFailureWindowMs, now))
  ) {
    throw new AppError('tooManyRequests');
  }
  let ok = false;
  if (input.totp !== undefined) {
    ok = await useTotpCode(ctx, user.id, input.totp, { pending: false });
  } else if (input.recoveryCode !== undefined) {
    ok = await useRecoveryCode(ctx.db, user.id, input.recoveryCode, now);
  } else if (input.webauthn !== undefined) {
    ok = await verifyPasskey(ctx, user.id, input.webauthn as unknown as AuthenticationResponseJSON);
  }
  if (!ok) throw new AppError('wrongSecondFactorCode');
  if (!(await consumeCode(ctx.db, check.id, now))) throw new AppError('notAuthorized');
  await clear(ctx.db, key);
  const data = check.data as { identityProvider?: unknown } | null;
  return startSession(ctx, user, { identityProvider: data?.identityProvider === true, device });
}

// Profile: enrolment and management

export async function secondFactorStatus(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'kind'>,
): Promise<SecondFactorsResponse> {
  const [totp, recovery, passkeys] = await Promise.all([
    findTotp(ctx.db, user.id),
    countRecoveryCodes(ctx.db, user.id),
    listPasskeys(ctx.db, user.id),
  ]);
  return {
    allowed: user.kind !== 'internal',
    totp: totp?.confirmed_at != null,
    recoveryCodesLeft: recovery.left,
    passkeys: passkeys.map((row) => ({
      id: row.id,
      name: row.name,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
    })),
  };
}

/** A new, unconfirmed secret; it replaces any earlier unconfirmed one. */
export async function startTotpEnrolment(
  ctx: AppContext,
  user: Actor,
): Promise<TotpEnrolmentResponse> {
  assertMayEnrol(user);
  const existing = await findTotp(ctx.db, user.id);
  if (existing?.confirmed_at != null) throw new AppError('secondFactorAlreadyEnabled');
  const { secret, uri } = newTotpSecret(user.email ?? user.username);
  const row = { secret_enc: encryptSecret(ctx.config.secret, secret), confirmed_at: null };
  const now = ctx.clock();
  await ctx.db
    .insertInto('user_totp')
    .values({ user_id: user.id, ...row, last_used_step: null, created_at: now })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ ...row, last_used_step: null, created_at: now }),
    )
    .execute();
  return { secret, uri };
}

/** The first factor of an account comes with its recovery codes, shown once. */
async function recoveryCodesForFirstFactor(
  ctx: AppContext,
  userId: string,
): Promise<RecoveryCodesResponse> {
  const { total } = await countRecoveryCodes(ctx.db, userId);
  if (total > 0) return {};
  return { recoveryCodes: await replaceRecoveryCodes(ctx.db, userId, ctx.clock()) };
}

export async function confirmTotp(
  ctx: AppContext,
  user: Actor,
  code: string,
): Promise<RecoveryCodesResponse> {
  assertMayEnrol(user);
  const existing = await findTotp(ctx.db, user.id);
  if (!existing) throw new AppError('secondFactorNotEnabled');
  if (existing.confirmed_at !== null) throw new AppError('secondFactorAlreadyEnabled');
  if (!(await useTotpCode(ctx, user.id, code, { pending: true }))) {
    throw new AppError('wrongSecondFactorCode');
  }
  await sendSecurityNotice(ctx, user, 'secondFactorChanged');
  return recoveryCodesForFirstFactor(ctx, user.id);
}

/** Without any factor left, recovery codes have nothing to stand in for. */
async function dropRecoveryCodesIfNoFactor(db: Db, userId: string): Promise<void> {
  if (!(await hasSecondFactor(db, userId))) {
    await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  }
}

/**
 * The account's owner confirms it is them with the password or a current authenticator code
 * (a code works once). Wrong answers count against the per-account sign-in limit (then 429
 * tooManyRequests); a wrong password is 401 notAuthorized, a wrong code 400 wrongSecondFactorCode.
 */
async function confirmOwner(
  ctx: AppContext,
  user: Actor,
  input: { password?: string | undefined; code?: string | undefined },
): Promise<void> {
  const { auth } = ctx.config;
  const key = accountKey(user.id);
  if (
    !(await reserve(
      ctx.db,
      key,
      auth.signinMaxFailuresPerAccount,
      auth.signinFailureWindowMs,
      ctx.clock(),
    ))
  ) {
    throw new AppError('tooManyRequests');
  }
  const ok =
    input.password !== undefined
      ? await verifyPassword(user.password_hash, input.password)
      : input.code !== undefined &&
        (await useTotpCode(ctx, user.id, input.code, { pending: false }));
  if (!ok) {
    throw new AppError(input.password !== undefined ? 'notAuthorized' : 'wrongSecondFactorCode');
  }
  await clear(ctx.db, key);
}

/** Turning TOTP off takes the password or a current code (counted like sign-in failures). */
export async function disableTotp(
  ctx: AppContext,
  user: Actor,
  input: { password?: string | undefined; code?: string | undefined },
): Promise<void> {
  const existing = await findTotp(ctx.db, user.id);
  if (existing?.confirmed_at == null) throw new AppError('secondFactorNotEnabled');
  await confirmOwner(ctx, user, input);
  await ctx.db.deleteFrom('user_totp').where('user_id', '=', user.id).execute();
  await dropRecoveryCodesIfNoFactor(ctx.db, user.id);
  await sendSecurityNotice(ctx, user, 'secondFactorChanged');
}

export async function regenerateRecoveryCodes(
  ctx: AppContext,
  user: Actor,
): Promise<RecoveryCodesResponse> {
  assertMayEnrol(user);
  if (!(await hasSecondFactor(ctx.db, user.id))) throw new AppError('secondFactorNotEnabled');
  const recoveryCodes = await replaceRecoveryCodes(ctx.db, user.id, ctx.clock());
  await sendSecurityNotice(ctx, user, 'secondFactorChanged');
  return { recoveryCodes };
}

export async function passkeyRegistrationOptions(ctx: AppContext, user: Actor) {
  assertMayEnrol(user);
  return registrationOptions(ctx, user);
}

export async function addPasskey(
  ctx: AppContext,
  user: Actor,
  input: { name: string; response: Record<string, unknown> },
): Promise<RecoveryCodesResponse> {
  assertMayEnrol(user);
  const ok = await registerPasskey(
    ctx,
    user.id,
    input.name,
    input.response as unknown as RegistrationResponseJSON,
  );
  if (!ok) throw new AppError('wrongSecondFactorCode', { message: 'The passkey was not accepted' });
  await sendSecurityNotice(ctx, user, 'passkeyAdded');
  return recoveryCodesForFirstFactor(ctx, user.id);
}

export async function removePasskey(ctx: AppContext, user: Actor, id: string): Promise<void> {
  const res = await ctx.db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) throw new AppError('notFound');
  await dropRecoveryCodesIfNoFactor(ctx.db, user.id);
  await sendSecurityNotice(ctx, user, 'secondFactorChanged');
}

/** How this account can confirm it is its owner again (ReauthenticationRequiredData). */
async function reauthenticationMethods(
  db: Db,
  user: Pick<UserRow, 'id' | 'password_hash'>,
): Promise<ReauthenticationMethod[]> {
  const totp = await findTotp(db, user.id);
  const methods: ReauthenticationMethod[] = [];
  if (user.password_hash !== null) methods.push('password');
  if (totp?.confirmed_at != null) methods.push('totp');
  return methods;
}

/**
 * Changing how one signs in needs a recent sign-in (RECENT_SIGN_IN_MS) or reauthentication in
 * this session, so a session left open on a shared computer cannot add its own authenticator
 * and lock the owner out. Otherwise 403 reauthenticationRequired with the methods the account
 * can confirm with; none for an access token without a session (sign in again).
 */
export async function requireRecentSignIn(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'password_hash'>,
  sessionId: string | undefined,
): Promise<void> {
  if (sessionId !== undefined) {
    const at = await sessionAuthenticatedAt(ctx.db, user.id, sessionId);
    if (at !== null && at >= ctx.clock() - RECENT_SIGN_IN_MS) return;
  }
  throw new AppError('reauthenticationRequired', {
    data: { methods: sessionId === undefined ? [] : await reauthenticationMethods(ctx.db, user) },
  });
}

/**
 * POST /users/@me/reauthenticate: the password, or a current authenticator code, makes this
 * session's sign-in recent again. Wrong answers count against the per-account sign-in limit.
 */
export async function reauthenticate(
  ctx: AppContext,
  user: Actor,
  sessionId: string | undefined,
  input: { password?: string | undefined; code?: string | undefined },
): Promise<void> {
  if (sessionId === undefined) {
    throw new AppError('reauthenticationRequired', { data: { methods: [] } });
  }
  await confirmOwner(ctx, user, input);
  const now = ctx.clock();
  if (!(await markSessionAuthenticated(ctx.db, user.id, sessionId, now))) {
    throw new AppError('invalidAuthorization');
  }
}
