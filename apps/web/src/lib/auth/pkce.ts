import { OAUTH_STATE_LENGTH, OAUTH_VERIFIER_LENGTH } from '@raccolta/contracts';

/** RFC 7636 §4.1: a code verifier uses the unreserved characters of RFC 3986. */
const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
// Bytes at or above this multiple of the alphabet size are drawn again, so that every character
// is equally likely (a plain modulo would favour the first ones).
const UNBIASED_LIMIT = 256 - (256 % UNRESERVED.length);

/** A random string of unreserved characters from the platform's cryptographic generator. */
export function randomUnreservedString(length: number): string {
  let result = '';
  while (result.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      if (byte < UNBIASED_LIMIT && result.length < length) {
        result += UNRESERVED.charAt(byte % UNRESERVED.length);
      }
    }
  }
  return result;
}

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 code challenge: base64url(SHA-256(ASCII(verifier))), RFC 7636 §4.2. */
export async function codeChallengeS256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}

export interface PkcePair {
  verifier: string;
  challenge: string;
  state: string;
}

/** Spec §9: a verifier of 128 characters and a state of 32. */
export async function createPkcePair(): Promise<PkcePair> {
  const verifier = randomUnreservedString(OAUTH_VERIFIER_LENGTH);
  return {
    verifier,
    challenge: await codeChallengeS256(verifier),
    state: randomUnreservedString(OAUTH_STATE_LENGTH),
  };
}
