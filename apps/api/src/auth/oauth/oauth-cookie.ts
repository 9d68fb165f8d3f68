export const OAUTH_COOKIE = 'raccolta_oauth';

export interface OauthCookieOptions {
  path: string;
  secure: boolean;
}

/**
 * Where the cookie binding a browser to its login is sent: only the OAuth endpoints, on whatever
 * path the API is published under (`/api/oauth2` by default).
 */
export function oauthCookieOptions(apiPublicUrl: string): OauthCookieOptions {
  const url = new URL(apiPublicUrl);
  return {
    path: `${url.pathname.replace(/\/+$/, '')}/oauth2`,
    secure: url.protocol === 'https:',
  };
}

/**
 * SameSite=Lax: the provider sends the browser back with a top-level GET, on which Lax cookies
 * travel, while a cross-site POST or embedded request never carries it.
 */
export function oauthCookie(
  value: string,
  maxAgeSeconds: number,
  opts: OauthCookieOptions,
): string {
  return [
    `${OAUTH_COOKIE}=${value}`,
    `Max-Age=${maxAgeSeconds}`,
    `Path=${opts.path}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedOauthCookie(opts: OauthCookieOptions): string {
  return oauthCookie('', 0, opts);
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}
