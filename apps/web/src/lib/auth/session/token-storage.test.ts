import { tokenSetSchema } from '@raccolta/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { ADA, fakeJwt, tokenSet } from '../../../test/session-fixtures';
import {
  clearStoredTokens,
  decodeIdToken,
  parseTokenSet,
  readStoredTokens,
  SessionError,
  storeTokenSet,
  TOKEN_KEYS,
} from './token-storage';

const NOW = 1_750_000_000_000;

function storedEntries(): Record<string, string | null> {
  return Object.fromEntries(
    Array.from({ length: localStorage.length }, (_, index) => {
      const key = localStorage.key(index) ?? '';
      return [key, localStorage.getItem(key)];
    }),
  );
}

function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('token storage', () => {
  afterEach(() => localStorage.clear());

  it('stores a token set under the spec names, with ExpiresAt in epoch ms', () => {
    const set = tokenSet({ ExpiresIn: 3600 });
    const { claims } = storeTokenSet(localStorage, set, false, NOW);

    expect(storedEntries()).toEqual({
      IDToken: set.IdToken,
      TokenType: 'Bearer',
      AccessToken: set.AccessToken,
      RefreshToken: set.RefreshToken,
      ExpiresAt: String(NOW + 3_600_000),
      IdentityProvider: 'false',
    });
    expect(claims).toEqual(ADA);
    expect(readStoredTokens(localStorage)).toEqual({
      idToken: set.IdToken,
      tokenType: 'Bearer',
      accessToken: set.AccessToken,
      refreshToken: set.RefreshToken,
      expiresAt: NOW + 3_600_000,
      identityProvider: false,
    });
  });

  it('marks a social sign-in with IdentityProvider true', () => {
    storeTokenSet(localStorage, tokenSet(), true, NOW);
    expect(localStorage.getItem(TOKEN_KEYS.identityProvider)).toBe('true');
    expect(readStoredTokens(localStorage)?.identityProvider).toBe(true);
  });

  it('keeps the stored refresh token when a refresh answer has none', () => {
    const first = tokenSet();
    storeTokenSet(localStorage, first, false, NOW);
    const { RefreshToken: _omitted, ...second } = tokenSet();
    storeTokenSet(localStorage, second, false, NOW + 1000);
    expect(localStorage.getItem('RefreshToken')).toBe(first.RefreshToken);
    expect(localStorage.getItem('AccessToken')).toBe(second.AccessToken);
  });

  it.each(['IdToken', 'TokenType', 'AccessToken', 'ExpiresIn'] as const)(
    'resets the session when the answer lacks %s',
    (missing) => {
      storeTokenSet(localStorage, tokenSet(), false, NOW);
      const { [missing]: _dropped, ...incomplete } = tokenSet();
      const error = thrown(() => storeTokenSet(localStorage, incomplete, false, NOW));
      expect(error).toBeInstanceOf(SessionError);
      expect((error as SessionError).code).toBe('tokensMissing');
      expect(localStorage.length).toBe(0);
    },
  );

  it('resets the session when the answer is not even an object', () => {
    expect((thrown(() => storeTokenSet(localStorage, null, false, NOW)) as SessionError).code).toBe(
      'tokensMissing',
    );
  });

  it('resets the session when the ID token cannot be decoded', () => {
    storeTokenSet(localStorage, tokenSet(), false, NOW);
    for (const IdToken of ['not-a-jwt', 'a.%%%.c', `a.${btoa('{"no":"sub"}')}.c`, 'a..c']) {
      const error = thrown(() => storeTokenSet(localStorage, tokenSet({ IdToken }), false, NOW));
      expect((error as SessionError).code).toBe('invalidIdToken');
      expect(localStorage.length).toBe(0);
    }
  });

  it('decodes UTF-8 claims of a base64url payload and ignores the others', () => {
    expect(decodeIdToken(fakeJwt({ sub: 'u1', email: 'zoë@example.com', iat: 1 }))).toEqual({
      sub: 'u1',
      email: 'zoë@example.com',
    });
  });

  it('reads a partial set as signed out without clearing it (another tab may be writing)', () => {
    storeTokenSet(localStorage, tokenSet(), false, NOW);
    localStorage.removeItem('AccessToken');
    expect(readStoredTokens(localStorage)).toBeNull();
    expect(localStorage.getItem('IDToken')).not.toBeNull();
    localStorage.setItem('AccessToken', 'a');
    localStorage.setItem('ExpiresAt', 'soon');
    expect(readStoredTokens(localStorage)).toBeNull();
  });

  it('clears every key and nothing else', () => {
    localStorage.setItem('themeMode', 'dark');
    storeTokenSet(localStorage, tokenSet(), false, NOW);
    clearStoredTokens(localStorage);
    expect(storedEntries()).toEqual({ themeMode: 'dark' });
  });

  it('checks a token set exactly as the contracts schema does', () => {
    const good = { IdToken: 'i', TokenType: 'Bearer', AccessToken: 'a', ExpiresIn: 3600 };
    const answers: unknown[] = [
      good,
      { ...good, RefreshToken: 'r' },
      { ...good, RefreshToken: '' },
      { ...good, RefreshToken: null },
      { ...good, RefreshToken: undefined },
      { ...good, IdToken: '' },
      { ...good, TokenType: 7 },
      { ...good, AccessToken: undefined },
      { ...good, ExpiresIn: 0 },
      { ...good, ExpiresIn: -5 },
      { ...good, ExpiresIn: 1.5 },
      { ...good, ExpiresIn: '3600' },
      { ...good, ExpiresIn: Number.NaN },
      { ...good, extra: 'dropped' },
      [],
      null,
      'tokens',
      42,
    ];
    for (const answer of answers) {
      const expected = tokenSetSchema.safeParse(answer);
      expect(parseTokenSet(answer), JSON.stringify(answer)).toEqual(
        expected.success ? expected.data : null,
      );
    }
  });
});
