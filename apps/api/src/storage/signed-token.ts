import { z } from 'zod';
import { readSignedPayload, signPayload } from '../auth/signed-payload.js';
import { assertValidKey, isValidKey, type SignedUrlOptions } from './storage.js';

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

/** Anything longer was not made here. */
const MAX_TOKEN_LENGTH = 8192;
const PURPOSE = 'raccolta/storage-link/v1';

export function createSignedToken(secret: string, payload: SignedTokenPayload): string {
  return signPayload(secret, PURPOSE, payloadSchema.parse(payload));
}

/**
 * The payload of a token this secret signed, expired or not, or null. The caller tells an
 * expired link (the user should ask for a new one) from a forged one.
 */
export function readSignedToken(secret: string, token: string): SignedTokenPayload | null {
  const parsed = payloadSchema.safeParse(
    readSignedPayload(secret, PURPOSE, token, MAX_TOKEN_LENGTH),
  );
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

export interface StorageLinks {
  signingSecret: string;
  /** Where the API is reachable from a browser, prefix included, e.g. `https://host/api`. */
  publicBaseUrl: string;
  clock: () => Date;
}

/** A link to the API's storage route (`/storage/{token}`), which serves `key` until it expires. */
export function storageRouteLink(links: StorageLinks, key: string, opts: SignedUrlOptions): string {
  assertValidKey(key);
  if (!Number.isFinite(opts.expiresInSeconds) || opts.expiresInSeconds <= 0) {
    throw new RangeError(`expiresInSeconds must be positive, got ${opts.expiresInSeconds}`);
  }
  const now = Math.floor(links.clock().getTime() / 1000);
  const token = createSignedToken(links.signingSecret, {
    k: key,
    e: now + Math.ceil(opts.expiresInSeconds),
    ...(opts.fileName !== undefined ? { n: opts.fileName } : {}),
    ...(opts.contentType !== undefined ? { t: opts.contentType } : {}),
    ...(opts.disposition !== undefined ? { d: opts.disposition } : {}),
  });
  return `${links.publicBaseUrl.replace(/\/+$/, '')}/storage/${token}`;
}
