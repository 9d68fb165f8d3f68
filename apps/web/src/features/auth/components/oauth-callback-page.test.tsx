import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { storeSession, tokenSet } from '../../../test/session-fixtures';
import { OAuthCallbackPage } from './oauth-callback-page';

const fetchMock = vi.fn<typeof fetch>();
const routes = [
  { path: '/auth/callback', element: <OAuthCallbackPage /> },
  { path: '/teams', element: <p>teams page</p> },
  { path: '/teams/:team/invitations/accept', element: <p>accept page</p> },
  { path: '/upload', element: <p>upload app</p> },
];

function startedAttempt() {
  sessionStorage.setItem('oauthState', 'S'.repeat(32));
  sessionStorage.setItem('oauthCodeVerifier', 'V'.repeat(128));
}

describe('OAuth callback page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(
      fetchRoutes({ 'POST /oauth2/token': () => jsonResponse(200, { result: tokenSet() }) }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    fetchMock.mockReset();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('shows the description the provider sent back, with a sign-in button', () => {
    renderRoutes(routes, '/auth/callback?error=access_denied&error_description=User%20cancelled');
    expect(screen.getByText('User cancelled')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a state it did not issue', async () => {
    startedAttempt();
    renderRoutes(routes, `/auth/callback?code=C&state=${'X'.repeat(32)}`);
    expect(await screen.findByText('An error occurred while validating the state.')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('redeems the code with the verifier, stores a provider session and opens the teams', async () => {
    startedAttempt();
    const { manager } = renderRoutes(routes, `/auth/callback?code=C0DE&state=${'S'.repeat(32)}`);
    expect(await screen.findByText('teams page')).toBeTruthy();
    expect(sentRequests(fetchMock)[0]?.body).toEqual({
      grant_type: 'authorization_code',
      code: 'C0DE',
      code_verifier: 'V'.repeat(128),
      redirect_uri: `${window.location.origin}/auth/callback`,
      client_id: 'raccolta-web',
    });
    expect(manager.getSnapshot()).toMatchObject({ status: 'signedIn', identityProvider: true });
    expect(localStorage.getItem('IdentityProvider')).toBe('true');
  });

  it('goes to the saved invitation after a second when the e-mail matches', async () => {
    startedAttempt();
    localStorage.setItem('invitationRedirect', '/teams/t1/invitations/accept?key=K');
    localStorage.setItem('invitedEmail', 'ADA@example.com');
    renderRoutes(routes, `/auth/callback?code=C&state=${'S'.repeat(32)}`);
    expect(await screen.findByText(/Taking you to your invitation/)).toBeTruthy();
    expect(await screen.findByText('accept page', {}, { timeout: 2000 })).toBeTruthy();
    expect(localStorage.getItem('invitationRedirect')).toBeNull();
  });

  it('goes to the teams when the signed-in e-mail is not the invited one', async () => {
    startedAttempt();
    localStorage.setItem('invitationRedirect', '/teams/t1/invitations/accept?key=K');
    localStorage.setItem('invitedEmail', 'someone.else@example.com');
    renderRoutes(routes, `/auth/callback?code=C&state=${'S'.repeat(32)}`);
    expect(await screen.findByText('teams page')).toBeTruthy();
  });

  it('returns to the upload app when the sign-in started there', async () => {
    startedAttempt();
    sessionStorage.setItem('oauthReturnTo', '/upload');
    renderRoutes(routes, `/auth/callback?code=C&state=${'S'.repeat(32)}`);
    expect(await screen.findByText('upload app')).toBeTruthy();
    expect(sessionStorage.getItem('oauthReturnTo')).toBeNull();
  });

  it('shows the generic error when the exchange fails, and the sign-in error when signed in', async () => {
    startedAttempt();
    fetchMock.mockImplementation(fetchRoutes({}));
    renderRoutes(routes, `/auth/callback?code=C&state=${'S'.repeat(32)}`);
    expect(await screen.findByText('An error occurred')).toBeTruthy();
    cleanup();

    startedAttempt();
    storeSession();
    renderRoutes(routes, `/auth/callback?code=C&state=${'S'.repeat(32)}`);
    expect(await screen.findByText('There is already a signed in user.')).toBeTruthy();
  });
});
