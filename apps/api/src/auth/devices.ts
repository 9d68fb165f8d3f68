import Bowser from 'bowser';
import { isIP } from 'node:net';

/** The longest user agent kept; longer ones are cut (they say nothing more a person needs). */
export const USER_AGENT_MAX_LENGTH = 255;

export interface SessionDevice {
  userAgent: string;
  /** "Firefox on Android"; '' when the user agent names neither a browser nor a system. */
  label: string;
  ipHint: string | null;
}

/**
 * A short name for the device a session was opened on, "<browser> on <system>", from the
 * User-Agent header (bowser). Versions are left out on purpose: a browser update is not a new
 * device. '' when nothing is recognised (no header, a script).
 */
export function deviceLabel(userAgent: string): string {
  const { browser, os } = deviceParts(userAgent);
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? '';
}

/**
 * The browser and system names of a user agent, for texts that put them in a sentence of their
 * own language ("Firefox su Android"); null when not recognised.
 */
export function deviceParts(userAgent: string | null): {
  browser: string | null;
  os: string | null;
} {
  if (!userAgent?.trim()) return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return {
    browser: parsed.browser.name?.trim() || null,
    os: parsed.os.name?.trim() || null,
  };
}

/**
 * A coarse hint of the network a session came from, never the address: the first two octets of an
 * IPv4 address ("203.0.x.x") or the first 32 bits of an IPv6 one ("2001:db8::/32"); null for
 * anything else.
 */
export function ipHint(ip: string | undefined): string | null {
  if (!ip) return null;
  const v4 = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  if (isIP(v4) === 4) {
    const [a, b] = v4.split('.');
    return `${a}.${b}.x.x`;
  }
  if (isIP(ip) === 6) {
    const groups = expandIpv6(ip);
    return `${groups[0]}:${groups[1]}::/32`;
  }
  return null;
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') && tail ? tail.split(':') : [];
  const missing = 8 - h.length - t.length;
  return [...h, ...Array<string>(Math.max(missing, 0)).fill('0'), ...t].map(
    (g) => g.replace(/^0+(?=.)/, '').toLowerCase() || '0',
  );
}

/** What is recorded of the request that opens a session: its User-Agent and address. */
export function requestDevice(request: {
  headers: { 'user-agent'?: string | undefined };
  ip: string;
}): SessionDevice {
  return sessionDevice(request.headers['user-agent'], request.ip);
}

/** What is recorded of a request that opens a session. */
export function sessionDevice(
  userAgent: string | undefined,
  ip: string | undefined,
): SessionDevice {
  const ua = (userAgent ?? '').slice(0, USER_AGENT_MAX_LENGTH);
  return { userAgent: ua, label: deviceLabel(ua), ipHint: ipHint(ip) };
}
