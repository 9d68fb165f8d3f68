import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Self-contained signed values for links that carry no session (storage downloads, rendition
 * images): `base64url(JSON payload) + '.' + base64url(HMAC-SHA256(payload segment))` under a key
 * derived from the secret for one purpose, so no other value the app signs can be replayed as
 * one of these. The caller validates the payload's shape and expiry.
 */

const SEGMENT = /^[A-Za-z0-9_-]+$/;

function purposeKey(secret: string, purpose: string): Buffer {
  if (secret.length === 0) throw new Error('The signing secret must not be empty');
  return createHmac('sha256', secret).update(purpose).digest();
}

function mac(secret: string, purpose: string, segment: string): string {
  return createHmac('sha256', purposeKey(secret, purpose)).update(segment).digest('base64url');
}

export function signPayload(secret: string, purpose: string, payload: unknown): string {
  const segment = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${segment}.${mac(secret, purpose, segment)}`;
}

/**
 * The JSON payload of a token this secret signed for this purpose, or undefined. Tokens longer
 * than `maxLength` were not made here; refusing them first bounds the work an attacker causes.
 */
export function readSignedPayload(
  secret: string,
  purpose: string,
  token: string,
  maxLength: number,
): unknown {
  if (token.length > maxLength) return undefined;
  const parts = token.split('.');
  if (parts.length !== 2) return undefined;
  const [segment, signature] = parts as [string, string];
  if (!SEGMENT.test(segment) || !SEGMENT.test(signature)) return undefined;
  // Comparing the canonical encodings also rejects alternative spellings of the same MAC bytes.
  const expected = Buffer.from(mac(secret, purpose, segment));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
