import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeChallengeS256 } from './pkce';
import {
  buildAuthorizeUrl,
  readSavedInvitation,
  startProviderSignIn,
  takeOAuthAttempt,
} from './oauth-redirect';

describe('social sign-in redirect', () => {
  afterEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('builds the authorize URL of the API with every parameter encoded', () => {
    const url = buildAuthorizeUrl({
      provider: 'google',
      challenge: 'CH',
      state: 'ST',
      locale: 'it',
      origin: 'https://raccolta.example',
      apiBase: '/api',
    });
    expect(url).toBe(
      '/api/oauth2/authorize?identity_provider=google&client_id=raccolta-web&response_type=code' +
        '&redirect_uri=https%3A%2F%2Fraccolta.example%2Fauth%2Fcallback&scope=email%20openid%20profile' +
        '&state=ST&code_challenge=CH&code_challenge_method=S256&ui_locales=it',
    );
  });

  it('keeps state and verifier for the callback, waits 100 ms, then leaves', async () => {
    const assign = vi.fn();
    const wait = vi.fn(() => Promise.resolve());
    await startProviderSignIn('microsoft', { locale: 'en', assign, wait });

    expect(wait).toHaveBeenCalledWith(100);
    const url = new URL(String(assign.mock.calls[0]?.[0]), 'http://localhost');
    const state = sessionStorage.getItem('oauthState');
    const verifier = sessionStorage.getItem('oauthCodeVerifier') ?? '';
    expect(url.searchParams.get('identity_provider')).toBe('microsoft');
    expect(url.searchParams.get('state')).toBe(state);
    expect(state).toHaveLength(32);
    expect(verifier).toHaveLength(128);
    expect(url.searchParams.get('code_challenge')).toBe(await codeChallengeS256(verifier));
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/auth/callback`);

    expect(takeOAuthAttempt()).toEqual({ state, verifier, returnTo: null });
    // Read once: a replayed callback finds nothing to match.
    expect(takeOAuthAttempt()).toEqual({ state: null, verifier: null, returnTo: null });
  });

  it('keeps an in-app place to return to, such as the upload app', async () => {
    const options = { locale: 'en', assign: vi.fn(), wait: () => Promise.resolve() };
    await startProviderSignIn('google', { ...options, returnTo: '/upload' });
    expect(takeOAuthAttempt().returnTo).toBe('/upload');

    await startProviderSignIn('google', { ...options, returnTo: 'https://evil.example/' });
    expect(takeOAuthAttempt().returnTo).toBeNull();
  });

  it('saves an invitation before leaving, and only an in-app location comes back', async () => {
    const invitation = { redirect: '/teams/t1/invitations/accept?key=k', email: 'ada@example.com' };
    await startProviderSignIn('google', {
      locale: 'en',
      invitation,
      assign: vi.fn(),
      wait: () => Promise.resolve(),
    });
    expect(localStorage.getItem('invitationRedirect')).toBe(invitation.redirect);
    expect(localStorage.getItem('invitedEmail')).toBe(invitation.email);
    expect(readSavedInvitation()).toEqual(invitation);

    localStorage.setItem('invitationRedirect', 'https://evil.example/');
    expect(readSavedInvitation()).toBeNull();
  });
});
