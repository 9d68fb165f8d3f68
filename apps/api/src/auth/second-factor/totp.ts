import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/create-db.js';
import { deriveKey } from '../secrets.js';

/** RFC 6238 as every authenticator app does it: SHA-1, 6 digits, 30 s; one step either side. */
const PERIOD_S = 30;
const WINDOW = 1;

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: 'Raccolta',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** AES-256-GCM under a key derived from APP_SECRET: iv.tag.ciphertext, base64url. */
export function encryptSecret(appSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(appSecret, 'totp'), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function decryptSecret(appSecret: string, stored: string): string {
  const [iv, tag, body] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('malformed TOTP secret');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(appSecret, 'totp'), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** A new secret (160 bits) and its otpauth:// URI for the QR code. */
export function newTotpSecret(label: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, label).toString() };
}

/** The time step a valid code belongs to, or null when it matches none within the window. */
export function totpStep(secretBase32: string, code: string, nowMs: number): number | null {
  const delta = totpOf(secretBase32, 'x').validate({
    token: code,
    timestamp: nowMs,
    window: WINDOW,
  });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / PERIOD_S) + delta;
}

export type TotpRow = Awaited<ReturnType<typeof findTotp>>;

export function findTotp(db: Db, userId: string) {
  return db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Checks a code against the user's secret (confirmed or, when `pending`, not yet) and records its
 * step: a code of a step already used, or older, is refused, also when two requests race (the
 * update only wins over a smaller step).
 */
export async function useTotpCode(
  ctx: AppContext,
  userId: string,
  code: string,
  opts: { pending: boolean },
): Promise<boolean> {
  const row = await findTotp(ctx.db, userId);
  if (!row || (row.confirmed_at === null) !== opts.pending) return false;
  const now = ctx.clock();
  const step = totpStep(decryptSecret(ctx.config.secret, row.secret_enc), code, now);
  if (step === null) return false;
  const res = await ctx.db
    .updateTable('user_totp')
    .set({ last_used_step: step, ...(opts.pending ? { confirmed_at: now } : {}) })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
