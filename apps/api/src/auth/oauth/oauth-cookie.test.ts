import { describe, expect, it } from 'vitest';
import { oauthCookie, oauthCookieOptions, readCookie } from './oauth-cookie.js';

describe('the OAuth cookie', () => {
  it('is scoped to the OAuth endpoints under the API path, Secure on https', () => {
    expect(oauthCookieOptions('https://example.com/api')).toEqual({
      path: '/api/oauth2',
      secure: true,
    });
    expect(oauthCookieOptions('http://localhost:3000/api')).toEqual({
      path: '/api/oauth2',
      secure: false,
    });
    expect(oauthCookieOptions('https://api.example.com')).toEqual({
      path: '/oauth2',
      secure: true,
    });
    expect(oauthCookie('id', 600, { path: '/oauth2', secure: true })).toBe(
      'raccolta_oauth=id; Max-Age=600; Path=/oauth2; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('is read from a Cookie header among others', () => {
    expect(readCookie('a=1; raccolta_oauth=abc; b=2', 'raccolta_oauth')).toBe('abc');
    expect(readCookie('xraccolta_oauth=abc', 'raccolta_oauth')).toBeUndefined();
    expect(readCookie('raccolta_oauth=', 'raccolta_oauth')).toBeUndefined();
    expect(readCookie(undefined, 'raccolta_oauth')).toBeUndefined();
  });
});
