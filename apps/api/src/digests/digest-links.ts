import { createHmac } from 'node:crypto';
import { webLink } from '../auth/links.js';
import { deriveKey, safeEqual } from '../auth/secrets.js';
import type { Config } from '../config/config.js';
import type { UnsubscribeLinks } from '../mail/layout.js';

/**
 * The unsubscribe token of one member's digests in one team: HMAC-SHA256 of the team and user ids
 * under a key derived for this purpose only. Stable and stored nowhere, like the newsletter's; a
 * token of one member or team says nothing about another's.
 */
export function digestUnsubscribeToken(secret: string, teamId: string, userId: string): string {
  return createHmac('sha256', deriveKey(secret, 'digest-unsubscribe'))
    .update(`${teamId}\n${userId}`)
    .digest('base64url');
}

export function isDigestUnsubscribeToken(
  secret: string,
  teamId: string,
  userId: string,
  token: string,
): boolean {
  return safeEqual(token, digestUnsubscribeToken(secret, teamId, userId));
}

/**
 * The web page `/digests/unsubscribe?team&user&token` for the footer of every digest, and the
 * same query on the API route for RFC 8058 one-click POSTs (List-Unsubscribe).
 */
export function digestUnsubscribeLinks(
  config: Config,
  teamId: string,
  userId: string,
): UnsubscribeLinks {
  const params = {
    team: teamId,
    user: userId,
    token: digestUnsubscribeToken(config.secret, teamId, userId),
  };
  const oneClick = new URL(`${config.apiPublicUrl}/digests/unsubscribe`);
  for (const [k, v] of Object.entries(params)) oneClick.searchParams.set(k, v);
  return {
    page: webLink(config, '/digests/unsubscribe', params),
    oneClick: oneClick.toString(),
  };
}
