import { describe, expect, it } from 'vitest';
import { base64UrlEncode, codeChallengeS256, createPkcePair, randomUnreservedString } from './pkce';

const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]+$/;

describe('PKCE', () => {
  it('matches the S256 example of RFC 7636 appendix B', async () => {
    // The RFC's own value; it is also the base64url of the SHA-256 octets the appendix lists.
    expect(await codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    expect(
      base64UrlEncode(
        new Uint8Array([
          19, 211, 30, 150, 26, 26, 216, 236, 47, 22, 177, 12, 76, 152, 46, 8, 118, 168, 120, 173,
          109, 241, 68, 86, 110, 225, 137, 74, 203, 112, 249, 195,
        ]),
      ),
    ).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes a 128-character verifier, a 32-character state and the verifier’s challenge', async () => {
    const pair = await createPkcePair();
    expect(pair.verifier).toHaveLength(128);
    expect(pair.verifier).toMatch(UNRESERVED_ONLY);
    expect(pair.state).toHaveLength(32);
    expect(pair.state).toMatch(UNRESERVED_ONLY);
    expect(pair.challenge).toBe(await codeChallengeS256(pair.verifier));
    expect(pair.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('draws different strings every time, over the whole alphabet', () => {
    const samples = Array.from({ length: 50 }, () => randomUnreservedString(128));
    expect(new Set(samples).size).toBe(50);
    const seen = new Set(samples.join(''));
    // 6,400 draws from 66 characters: missing one by chance is practically impossible.
    expect(seen.size).toBe(66);
  });

  it('encodes base64url without padding', () => {
    expect(base64UrlEncode(new Uint8Array([251, 255, 191]))).toBe('-_-_');
    expect(base64UrlEncode(new Uint8Array([1]))).toBe('AQ');
  });
});
