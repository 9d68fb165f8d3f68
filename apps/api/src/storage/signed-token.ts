import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { isValidKey } from './storage.js';

/** What a download link carries; short names keep the URL short. */
export interface SignedTokenPayload {
  /** storage key */
  k: string;
  /** expiry, epoch seconds: the link works while now < e */
  e: number;
  /** file name offered to the browser */
  n?: string;
  /** content type to answer with */
  t?: string;
  /** content disposition */
  d?: 'attachment' | 'inline';
}

const payloadSchema = z.object({
  k: z.string().refine(isValidKey),
  e: z.number().int().nonnegative(),
  n: z.string().max(1024).optional(),
  t: z.string().max(255).optional(),
  d: z.enum(['attachment', 'inline']).optional(),
});

/** Anything longer was not made here; refusing it early bounds the work an attacker can cause. */
const MAX_TOKEN_LENGTH = 8192;
const SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * The application secret also signs sessions, so links are signed with a key derived for this
 * purpose only: no other signed value of the app can be replayed as a download link.
 */
function linkKey(secret: string): Buffer {
  if (secret.length === 0) throw new Error('The signing secret must not be empty');
  return createHmac('sha256', secret).update('raccolta/storage-link/v1').digest();
}

function mac(secret: string, payloadSegment: string): string {
  return createHmac('sha256', linkKey(secret)).update(payloadSegment).digest('base64url');
}

/** `base64url(JSON payload) + '.' + base64url(HMAC-SHA256(payload segment))`. */
export function createSignedToken(secret: string, payload: SignedTokenPayload): string {
  const segment = Buffer.from(JSON.stringify(payloadSchema.parse(payload))).toString('base64url');
  return `${segment}.${mac(secret, segment)}`;
}

/**
 * The payload of a token this secret signed, expired or not, or null. The caller tells an
 * expired link (the user should ask for a new one) from a forged one.
 */
export function readSignedToken(secret: string, token: string): SignedTokenPayload | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 2) return null;
  const [segment, signature] = parts as [string, string];
  if (!SEGMENT.test(segment) || !SEGMENT.test(signature)) return null;

  // Comparing the canonical encodings also rejects alternative spellings of the same MAC bytes.
  const expected = Buffer.from(mac(secret, segment));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;

  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = payloadSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** The payload of a genuine token that has not expired at `nowSeconds`, or null. */
export function verifySignedToken(
  secret: string,
  token: string,
  nowSeconds: number,
): SignedTokenPayload | null {
  const payload = readSignedToken(secret, token);
  if (payload === null || isExpired(payload, nowSeconds)) return null;
  return payload;
}

export function isExpired(payload: SignedTokenPayload, nowSeconds: number): boolean {
  return nowSeconds >= payload.e;
}
