import { z } from 'zod';
import { readSignedPayload, signPayload } from '../auth/signed-payload.js';
import type { RenditionKind } from './renditions.js';

/**
 * Links to a file's thumbnail and preview. They are loaded by `<img src>`, which sends no
 * Authorization header, so the link itself names the file, the user it was issued to and an
 * expiry under an HMAC; the route serving it checks that user's access again on every request.
 */

export interface RenditionGrant {
  fileId: string;
  userId: string;
  kind: RenditionKind;
  /** Epoch seconds; the link works while now < expiresAt. */
  expiresAt: number;
}

const KIND_CODES = { thumbnail: 't', preview: 'p' } as const satisfies Record<
  RenditionKind,
  string
>;

/** Short names keep the token near 200 characters. */
const payloadSchema = z.object({
  f: z.uuid(),
  u: z.uuid(),
  k: z.enum(['t', 'p']),
  e: z.number().int().nonnegative(),
});
type Payload = z.infer<typeof payloadSchema>;

/** Far above a genuine token (~220 characters): anything longer is refused before any work. */
const MAX_TOKEN_LENGTH = 512;
const PURPOSE = 'raccolta/rendition-link/v1';

export function createRenditionToken(secret: string, grant: RenditionGrant): string {
  const payload: Payload = {
    f: grant.fileId,
    u: grant.userId,
    k: KIND_CODES[grant.kind],
    e: grant.expiresAt,
  };
  return signPayload(secret, PURPOSE, payloadSchema.parse(payload));
}

/** The grant of a token this secret signed, expired or not; null for anything else. */
export function readRenditionToken(secret: string, token: string): RenditionGrant | null {
  const parsed = payloadSchema.safeParse(
    readSignedPayload(secret, PURPOSE, token, MAX_TOKEN_LENGTH),
  );
  if (!parsed.success) return null;
  const { f, u, k, e } = parsed.data;
  return { fileId: f, userId: u, kind: k === 't' ? 'thumbnail' : 'preview', expiresAt: e };
}

/**
 * The expiry of a link issued at `nowMs`: at least `ttlSeconds` away, rounded up to a tenth of
 * the lifetime. Lists fetched again within that tenth carry the very same URLs, so the browser
 * serves the images from its cache instead of loading every thumbnail again.
 */
export function renditionExpiry(nowMs: number, ttlSeconds: number): number {
  const step = Math.max(1, Math.floor(ttlSeconds / 10));
  return Math.ceil((Math.floor(nowMs / 1000) + ttlSeconds) / step) * step;
}

export interface RenditionLinkSettings {
  /** Where the API is reachable from a browser, prefix included (config.apiPublicUrl). */
  apiPublicUrl: string;
  secret: string;
  ttlSeconds: number;
}

/** `${apiPublicUrl}/renditions/<token>` for one user, one file, one kind. */
export function renditionUrl(
  settings: RenditionLinkSettings,
  link: { fileId: string; userId: string; kind: RenditionKind },
  nowMs: number,
): string {
  const token = createRenditionToken(settings.secret, {
    ...link,
    expiresAt: renditionExpiry(nowMs, settings.ttlSeconds),
  });
  return `${settings.apiPublicUrl.replace(/\/+$/, '')}/renditions/${token}`;
}
