import { describe, expect, it } from 'vitest';
import { checkAuthorizeRequest, clientRedirect, localeFrom } from './authorize-request.js';

const rules = { redirectUris: ['https://app.example/auth/callback'], providerIds: ['google'] };
const valid = {
  identity_provider: 'google',
  client_id: 'raccolta-web',
  response_type: 'code',
  redirect_uri: 'https://app.example/auth/callback',
  scope: 'email openid profile',
  state: 'a'.repeat(32),
  code_challenge: 'b'.repeat(43),
  code_challenge_method: 'S256',
  ui_locales: 'it-IT en',
};

describe('checkAuthorizeRequest', () => {
  it('accepts what the web app sends', () => {
    expect(checkAuthorizeRequest(valid, rules)).toEqual({
      kind: 'valid',
      request: {
        providerId: 'google',
        redirectUri: valid.redirect_uri,
        state: valid.state,
        codeChallenge: valid.code_challenge,
        uiLocales: 'it-IT en',
        locale: 'it',
      },
    });
  });

  it('checks the redirect URI before anything else, so nothing goes to an unlisted address', () => {
    const check = checkAuthorizeRequest(
      { ...valid, redirect_uri: 'https://app.example/auth/callback?x=1', response_type: 'token' },
      rules,
    );
    expect(check.kind).toBe('refused');
  });

  it('does not pass on ui_locales that are not language tags', () => {
    const check = checkAuthorizeRequest({ ...valid, ui_locales: 'it"><script>' }, rules);
    expect(check).toMatchObject({ kind: 'valid', request: { uiLocales: undefined, locale: 'en' } });
  });

  it('accepts a state of 512 characters, the longest allowed', () => {
    expect(checkAuthorizeRequest({ ...valid, state: 's'.repeat(512) }, rules).kind).toBe('valid');
  });
});

describe('localeFrom', () => {
  it.each([
    ['it', 'it'],
    ['fr-FR it en', 'it'],
    ['EN-gb', 'en'],
    ['de', 'en'],
    [undefined, 'en'],
  ])('%s → %s', (tags, locale) => {
    expect(localeFrom(tags)).toBe(locale);
  });
});

describe('clientRedirect', () => {
  it('adds parameters to a redirect URI that has a query of its own, leaving out the absent', () => {
    expect(clientRedirect('https://app.example/cb?tab=1', { code: 'c d', state: undefined })).toBe(
      'https://app.example/cb?tab=1&code=c+d',
    );
  });
});
