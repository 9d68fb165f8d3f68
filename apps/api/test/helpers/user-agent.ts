/**
 * A minimal browser for redirect flows: follows redirects by hand and keeps cookies per host name
 * (browsers scope cookies by host, not port). Paths are ignored: the names used do not collide.
 */
export interface UserAgent {
  readonly cookies: Map<string, string>;
  get(url: string): Promise<Response>;
  /** Follows redirects until a non-redirect answer, or until the next URL starts with `stopAt`. */
  follow(url: string, opts?: { stopAt?: string; maxHops?: number }): Promise<FollowResult>;
}

export interface FollowResult {
  /** The last URL reached (not fetched when it matched `stopAt`). */
  url: string;
  /** The answer at `url`, unless the walk stopped before fetching it. */
  response: Response | undefined;
  hops: string[];
}

export function createUserAgent(): UserAgent {
  const cookies = new Map<string, string>();
  const keyOf = (host: string, name: string) => `${host}\t${name}`;

  async function get(url: string): Promise<Response> {
    const target = new URL(url);
    const cookie = [...cookies]
      .filter(([key]) => key.startsWith(`${target.hostname}\t`))
      .map(([key, value]) => `${key.split('\t')[1] ?? ''}=${value}`)
      .join('; ');
    const response = await fetch(target, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const eq = pair.indexOf('=');
      const key = keyOf(target.hostname, pair.slice(0, eq).trim());
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') cookies.delete(key);
      else cookies.set(key, value);
    }
    return response;
  }

  async function follow(
    start: string,
    opts: { stopAt?: string; maxHops?: number } = {},
  ): Promise<FollowResult> {
    const hops: string[] = [];
    let url = start;
    for (let i = 0; i < (opts.maxHops ?? 10); i++) {
      if (opts.stopAt && url.startsWith(opts.stopAt)) return { url, response: undefined, hops };
      hops.push(url);
      const response = await get(url);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return { url, response, hops };
      }
      await response.arrayBuffer();
      url = new URL(location, url).href;
    }
    throw new Error(`too many redirects: ${hops.join(' -> ')}`);
  }

  return { cookies, get, follow };
}
