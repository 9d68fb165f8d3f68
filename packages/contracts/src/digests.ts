import { z } from 'zod';
import type { MemberRole } from './constants.js';
import { hasPermission } from './permissions.js';
import { bodySchema, linkParamSchema } from './validation-fields.js';

/**
 * Digests of what arrived (issue #36): per member and team, an e-mail listing the new files in
 * the collections the member can see. `instant` is batched to at most one e-mail per 15 minutes,
 * `daily` to at most one per 24 hours.
 */
export const DIGEST_FREQUENCIES = ['never', 'daily', 'instant'] as const;
export type DigestFrequency = (typeof DIGEST_FREQUENCIES)[number];

/** The shortest time between two digests of one member in one team, per frequency. */
export const DIGEST_INTERVAL_MS = {
  daily: 24 * 60 * 60_000,
  instant: 15 * 60_000,
} as const satisfies Record<Exclude<DigestFrequency, 'never'>, number>;

/** At most this many thumbnails in one digest. */
export const DIGEST_MAX_THUMBNAILS = 6;

/** Until a member chooses: daily for owners and admins, never for everyone else. */
export function defaultDigestFrequency(role: MemberRole): DigestFrequency {
  return role === 'owner' || role === 'admin' ? 'daily' : 'never';
}

/** What a member receives: their choice, else their role's default. */
export function effectiveDigestFrequency(
  role: MemberRole,
  chosen: DigestFrequency | null | undefined,
): DigestFrequency {
  return chosen ?? defaultDigestFrequency(role);
}

/**
 * Who can receive a digest (and so choose one): a member who may read files and has an e-mail
 * address. Internal contributors have none.
 */
export function canReceiveDigest({
  role,
  hasEmail,
}: {
  role: MemberRole;
  hasEmail: boolean;
}): boolean {
  return hasEmail && hasPermission(role, 'readFile');
}

export const digestFrequencySchema = z.enum(DIGEST_FREQUENCIES, { error: 'invalidInput' });

/** GET/PUT /teams/{teamId}/members/@me/digest. */
export const digestPreferenceSchema = z.object({
  /** What the member receives now. */
  frequency: z.enum(DIGEST_FREQUENCIES),
  /** True while the member has not chosen: `frequency` is their role's default. */
  isDefault: z.boolean(),
  /** False for a member without an e-mail address (internal contributors): nothing is sent. */
  available: z.boolean(),
});
export type DigestPreference = z.infer<typeof digestPreferenceSchema>;

export const putDigestPreferenceSchema = bodySchema({ frequency: digestFrequencySchema });
export type PutDigestPreference = z.infer<typeof putDigestPreferenceSchema>;

/** The query of /digests/unsubscribe (web) and the body of POST /digests/unsubscribe. */
export const digestUnsubscribeRequestSchema = bodySchema({
  team: linkParamSchema('invalidUnsubscribe'),
  user: linkParamSchema('invalidUnsubscribe'),
  token: linkParamSchema('invalidUnsubscribe'),
});
export type DigestUnsubscribeRequest = z.infer<typeof digestUnsubscribeRequestSchema>;

export const digestUnsubscribeResponseSchema = z.object({ status: z.literal('unsubscribed') });
export type DigestUnsubscribeResponse = z.infer<typeof digestUnsubscribeResponseSchema>;
