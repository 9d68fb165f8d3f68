import { guestSessionSchema, type GuestSession } from '@raccolta/contracts';
import { z } from 'zod';

/**
 * What a guest's browser keeps of upload links (issue #36), in localStorage:
 * - one guest id for the browser, sent back when a link is opened again, so the guest sees the
 *   files they sent before (the API lists a guest's files by link and guest id);
 * - the name and e-mail last typed, offered again;
 * - per link, the session that opening it answered (guest token, until when, what the page
 *   shows), so a reload does not ask for a protected link's password again while it lasts.
 * A link's password is never stored: it is kept in memory only, to open the link again when
 * the guest token runs out during a long upload.
 */

const DETAILS_KEY = 'raccolta:guest';
const sessionKey = (linkToken: string) => `raccolta:guest-link:${linkToken}`;

const detailsSchema = z.object({
  guestId: z.uuid().optional(),
  name: z.string().default(''),
  email: z.string().default(''),
});
export type GuestDetails = z.infer<typeof detailsSchema>;

function read(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the page still works, it only forgets more.
  }
}

export function readGuestDetails(): GuestDetails {
  const parsed = detailsSchema.safeParse(read(DETAILS_KEY) ?? {});
  return parsed.success ? parsed.data : { name: '', email: '' };
}

export function saveGuestDetails(patch: Partial<GuestDetails>): void {
  write(DETAILS_KEY, { ...readGuestDetails(), ...patch });
}

/** A stored session still good for `marginMs` more, else null. */
export function readGuestSession(
  linkToken: string,
  now: number = Date.now(),
  marginMs = 0,
): GuestSession | null {
  const parsed = guestSessionSchema.safeParse(read(sessionKey(linkToken)));
  if (!parsed.success) return null;
  return Date.parse(parsed.data.expiresAt) - marginMs > now ? parsed.data : null;
}

export function saveGuestSession(linkToken: string, session: GuestSession): void {
  write(sessionKey(linkToken), session);
  saveGuestDetails({ guestId: session.guestId });
}

export function forgetGuestSession(linkToken: string): void {
  try {
    localStorage.removeItem(sessionKey(linkToken));
  } catch {
    // Nothing to do.
  }
}

/** Passwords of the links opened in this page, in memory only (see above). */
const passwords = new Map<string, string>();

export function rememberLinkPassword(linkToken: string, password: string): void {
  passwords.set(linkToken, password);
}

export function linkPassword(linkToken: string): string | undefined {
  return passwords.get(linkToken);
}
