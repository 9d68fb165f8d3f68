import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/create-db.js';
import type { OneTimeCodePurpose } from '../../db/database.js';
import { newId } from '../../db/ids.js';
import { hashToken } from '../secrets.js';
import { checkCode, consumeCode } from '../one-time-codes.js';

/** A WebAuthn ceremony must finish within this; the challenge is then used up. */
const CHALLENGE_TTL_MS = 5 * 60_000;

/** RP ID = host name of PUBLIC_URL, origin = its origin. */
export function relyingParty(ctx: AppContext): { rpID: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

export function listPasskeys(db: Db, userId: string) {
  return db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

function parseTransports(value: string | null): AuthenticatorTransportFuture[] | undefined {
  if (value === null) return undefined;
  const parsed: unknown = JSON.parse(value);
  return Array.isArray(parsed) ? (parsed as AuthenticatorTransportFuture[]) : undefined;
}

/** Stored server-side like any one-time code (hashed, short-lived, single use), keyed by itself. */
async function storeChallenge(
  db: Db,
  userId: string,
  challenge: string,
  purpose: OneTimeCodePurpose,
  nowMs: number,
): Promise<void> {
  await db
    .insertInto('one_time_codes')
    .values({
      id: newId(),
      user_id: userId,
      purpose,
      code_hash: hashToken(challenge),
      data: null,
      expires_at: nowMs + CHALLENGE_TTL_MS,
      used_at: null,
      created_at: nowMs,
    })
    .execute();
}

/** The challenge the browser signed, used up if it is a live one of this user; else null. */
async function takeChallenge(
  db: Db,
  userId: string,
  clientDataJSON: unknown,
  purpose: OneTimeCodePurpose,
  nowMs: number,
): Promise<string | null> {
  if (typeof clientDataJSON !== 'string') return null;
  let challenge: unknown;
  try {
    challenge = (
      JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
        challenge?: unknown;
      }
    ).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== 'string' || challenge === '') return null;
  const check = await checkCode(db, challenge, purpose, nowMs, userId);
  if (check.status !== 'valid' || !(await consumeCode(db, check.id, nowMs))) return null;
  return challenge;
}

export async function registrationOptions(
  ctx: AppContext,
  user: { id: string; email: string | null; username: string; nickname: string | null },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listPasskeys(ctx.db, user.id);
  const options = await generateRegistrationOptions({
    rpName: 'Raccolta',
    rpID: relyingParty(ctx).rpID,
    userName: user.email ?? user.username,
    userDisplayName: user.nickname ?? user.username,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({
      id: row.credential_id,
      transports: parseTransports(row.transports),
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await storeChallenge(ctx.db, user.id, options.challenge, 'webauthn_register', ctx.clock());
  return options;
}

/** Verifies a new credential against a live challenge of the user and stores it; false if not. */
export async function registerPasskey(
  ctx: AppContext,
  userId: string,
  name: string,
  response: RegistrationResponseJSON,
): Promise<boolean> {
  const now = ctx.clock();
  const challenge = await takeChallenge(
    ctx.db,
    userId,
    response.response.clientDataJSON,
    'webauthn_register',
    now,
  );
  if (challenge === null) return false;
  const { rpID, origin } = relyingParty(ctx);
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch((err: unknown) => {
    ctx.logger.info({ err }, 'passkey registration refused');
    return null;
  });
  if (!result?.verified) return false;
  const { credential } = result.registrationInfo;
  await ctx.db
    .insertInto('passkeys')
    .values({
      id: newId(),
      user_id: userId,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ? JSON.stringify(credential.transports) : null,
      name,
      created_at: now,
      last_used_at: null,
    })
    .execute();
  return true;
}

export async function authenticationOptions(
  ctx: AppContext,
  userId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON | undefined> {
  const keys = await listPasskeys(ctx.db, userId);
  if (keys.length === 0) return undefined;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpID,
    allowCredentials: keys.map((row) => ({
      id: row.credential_id,
      transports: parseTransports(row.transports),
    })),
    userVerification: 'preferred',
  });
  await storeChallenge(ctx.db, userId, options.challenge, 'webauthn_authenticate', ctx.clock());
  return options;
}

/** Checks an assertion by one of the user's passkeys against a live challenge of theirs. */
export async function verifyPasskey(
  ctx: AppContext,
  userId: string,
  response: AuthenticationResponseJSON,
): Promise<boolean> {
  const now = ctx.clock();
  const row = await ctx.db
    .selectFrom('passkeys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('credential_id', '=', response.id)
    .executeTakeFirst();
  if (!row) return false;
  const challenge = await takeChallenge(
    ctx.db,
    userId,
    response.response.clientDataJSON,
    'webauthn_authenticate',
    now,
  );
  if (challenge === null) return false;
  const { rpID, origin } = relyingParty(ctx);
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
    credential: {
      id: row.credential_id,
      publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
      counter: row.counter,
      transports: parseTransports(row.transports),
    },
  }).catch((err: unknown) => {
    ctx.logger.info({ err }, 'passkey assertion refused');
    return null;
  });
  if (!result?.verified) return false;
  await ctx.db
    .updateTable('passkeys')
    .set({ counter: result.authenticationInfo.newCounter, last_used_at: now })
    .where('id', '=', row.id)
    .execute();
  return true;
}
