import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createSignedToken,
  readSignedToken,
  verifySignedToken,
  type SignedTokenPayload,
} from './signed-token.js';

const SECRET = 'a-secret-that-is-long-enough-for-tests';
const PAYLOAD: SignedTokenPayload = {
  k: 'teams/t/files/f',
  e: 2_000_000_000,
  n: 'Foto di gruppo 😀.jpg',
  t: 'image/jpeg',
  d: 'inline',
};

function signRaw(json: string): string {
  const linkKey = createHmac('sha256', SECRET).update('raccolta/storage-link/v1').digest();
  const segment = Buffer.from(json).toString('base64url');
  return `${segment}.${createHmac('sha256', linkKey).update(segment).digest('base64url')}`;
}

function flipChar(text: string, index: number): string {
  const c = text.charAt(index);
  return text.slice(0, index) + (c === 'A' ? 'B' : 'A') + text.slice(index + 1);
}

describe('signed tokens', () => {
  const token = createSignedToken(SECRET, PAYLOAD);

  it('round-trips the payload while it is valid', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifySignedToken(SECRET, token, PAYLOAD.e - 1)).toEqual(PAYLOAD);
  });

  it('expires at e', () => {
    expect(verifySignedToken(SECRET, token, PAYLOAD.e)).toBeNull();
    expect(verifySignedToken(SECRET, token, PAYLOAD.e + 1000)).toBeNull();
    // Expired tokens are still recognisably genuine, so the route can answer 410 rather than 403.
    expect(readSignedToken(SECRET, token)).toEqual(PAYLOAD);
  });

  it('refuses a token signed with another secret', () => {
    expect(verifySignedToken('another-secret', token, 0)).toBeNull();
  });

  it('refuses any change to the payload or the signature', () => {
    const [segment = '', signature = ''] = token.split('.');
    for (const index of [0, 10, segment.length - 1]) {
      expect(verifySignedToken(SECRET, `${flipChar(segment, index)}.${signature}`, 0)).toBeNull();
    }
    for (const index of [0, 20, signature.length - 1]) {
      expect(verifySignedToken(SECRET, `${segment}.${flipChar(signature, index)}`, 0)).toBeNull();
    }
  });

  it('refuses a payload re-signed without the derived link key', () => {
    const segment = Buffer.from(JSON.stringify({ ...PAYLOAD, k: 'teams/other/files/f' })).toString(
      'base64url',
    );
    const naive = createHmac('sha256', SECRET).update(segment).digest('base64url');
    expect(verifySignedToken(SECRET, `${segment}.${naive}`, 0)).toBeNull();
  });

  it.each(['', '.', 'abc', 'a.b.c', `${token}.x`, `${token}=`, 'a b.c', `x${'y'.repeat(9000)}.z`])(
    'refuses the malformed token %j',
    (bad) => {
      expect(verifySignedToken(SECRET, bad, 0)).toBeNull();
    },
  );

  it('refuses to sign a payload of the wrong shape', () => {
    expect(() => createSignedToken(SECRET, { ...PAYLOAD, k: '../etc/passwd' })).toThrow();
  });

  it.each([
    JSON.stringify({ ...PAYLOAD, k: '../etc/passwd' }),
    JSON.stringify({ k: 'a' }),
    JSON.stringify({ ...PAYLOAD, d: 'download' }),
    'not json',
  ])('refuses a correctly signed payload %s', (json) => {
    expect(readSignedToken(SECRET, signRaw(json))).toBeNull();
  });

  it('signs raw payloads the way the module does, so the case above is meaningful', () => {
    expect(signRaw(JSON.stringify(PAYLOAD))).toBe(token);
    expect(readSignedToken(SECRET, signRaw(JSON.stringify(PAYLOAD)))).toEqual(PAYLOAD);
  });

  it('refuses to sign with an empty secret', () => {
    expect(() => createSignedToken('', PAYLOAD)).toThrow();
  });
});
