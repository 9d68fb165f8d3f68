import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey, hashToken, randomToken } from '../auth/secrets.js';
import { readSignedPayload, signPayload } from '../auth/signed-payload.js';

/**
 * A link's secret token: 256 random bits, base64url. Stored as its SHA-256 (how a request finds
 * the link: a database read reveals no usable token) and encrypted with AES-256-GCM under a key
 * derived from APP_SECRET (so the link's managers see its URL and QR code again).
 */
export function newLinkToken(secret: string): { token: string; hash: string; encrypted: string } {
  const token = randomToken(32);
  return { token, hash: hashToken(token), encrypted: encryptLinkToken(secret, token) };
}

export const linkTokenHash = hashToken;

function encryptLinkToken(secret: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secret, 'upload-link'), iv);
  const body = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

export function decryptLinkToken(secret: string, stored: string): string {
  const [iv, tag, body] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !body) throw new Error('malformed upload link token');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(secret, 'upload-link'), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/** What a guest token carries: the link, the guest's browser id, and when it stops working. */
export interface GuestClaims {
  linkId: string;
  guestId: string;
  expiresAt: number;
}

const GUEST_PURPOSE = 'guest-upload';
const GUEST_TOKEN_MAX_LENGTH = 400;

export function signGuestToken(secret: string, claims: GuestClaims): string {
  return signPayload(secret, GUEST_PURPOSE, {
    l: claims.linkId,
    g: claims.guestId,
    e: claims.expiresAt,
  });
}

/** The claims of a guest token this server signed and that has not expired, else null. */
export function readGuestToken(secret: string, token: string, now: number): GuestClaims | null {
  const payload = readSignedPayload(secret, GUEST_PURPOSE, token, GUEST_TOKEN_MAX_LENGTH);
  if (typeof payload !== 'object' || payload === null) return null;
  const { l, g, e } = payload as Record<string, unknown>;
  if (typeof l !== 'string' || typeof g !== 'string' || typeof e !== 'number') return null;
  if (e <= now) return null;
  return { linkId: l, guestId: g, expiresAt: e };
}
