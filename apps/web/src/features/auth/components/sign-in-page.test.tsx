import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n';
import {
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { ADA, tokenSet } from '../../../test/session-fixtures';
import { GuestOnlyRoute } from './route-guards';
import { SignInPage } from './sign-in-page';

const fetchMock = vi.fn<typeof fetch>();
const TEAM_ID = '0195f0c2-7c1a-7000-8000-00000000000a';

const routes = [
  {
    element: <GuestOnlyRoute />,
    children: [{ path: '/auth/signin', element: <SignInPage /> }],
  },
  { path: '/teams', element: <p>teams page</p> },
  { path: '/teams/:team', element: <p>team page</p> },
];

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label, { exact: false, selector: 'input' }), {
    target: { value },
  });
}

function submit(name = 'Sign in') {
  const form = screen.getByRole('button', { name }).closest('form');
  if (!form) throw new Error('no form');
  fireEvent.submit(form);
}

function sentBody(path: string): unknown {
  return sentRequests(fetchMock).find((request) => request.path === path)?.body;
}

describe('sign-in page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
        'POST /auth/signin': () => jsonResponse(200, { result: tokenSet() }),
      }),
    );
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    await i18n.changeLanguage('en');
  });

  it('shows the translated validation messages of an empty form', async () => {
    renderRoutes(routes, '/auth/signin');
    submit();
    expect(await screen.findByText('E-mail or username required')).toBeTruthy();
    expect(screen.getByText('Password required')).toBeTruthy();
    expect(sentRequests(fetchMock).map((request) => request.path)).not.toContain('/auth/signin');
  });

  it('checks only the length of the password, not the sign-up policy', async () => {
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'ada@example.com');
    type('Password', 'short');
    submit();
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeTruthy();

    type('Password', 'alllowercase');
    submit();
    expect(await screen.findByText('teams page')).toBeTruthy();
  });

  it('signs in with an e-mail, stores the session and goes to the teams', async () => {
    const { manager } = renderRoutes(routes, '/auth/signin');
    type('E-mail or username', '  ada@example.com ');
    type('Password', 'correct horse');
    expect(screen.queryByLabelText('Team code', { exact: false })).toBeNull();
    submit();

    expect(await screen.findByText('teams page')).toBeTruthy();
    expect(sentBody('/auth/signin')).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
    });
    expect(manager.getSnapshot()).toMatchObject({ status: 'signedIn', idClaims: ADA });
    expect(localStorage.getItem('IdentityProvider')).toBe('false');
  });

  it('offers a team code for a username and sends it', async () => {
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'mario.rossi');
    type('Team code', 'acme');
    type('Password', 'Generated-1');
    submit();
    expect(await screen.findByText('teams page')).toBeTruthy();
    expect(sentBody('/auth/signin')).toEqual({
      username: 'mario.rossi',
      password: 'Generated-1',
      team: 'acme',
    });
  });

  it('sends the team of the query and goes to it', async () => {
    renderRoutes(routes, `/auth/signin?teamId=${TEAM_ID}`);
    type('E-mail or username', 'mario.rossi');
    type('Password', 'Generated-1');
    submit();
    expect(await screen.findByText('team page')).toBeTruthy();
    expect(sentBody('/auth/signin')).toMatchObject({ username: 'mario.rossi', team: TEAM_ID });
  });

  it("shows the link's team code, which can be corrected, and lands on the corrected team", async () => {
    const { router } = renderRoutes(routes, '/auth/signin?team=acne');
    type('E-mail or username', 'mario.rossi');
    const team = screen.getByLabelText<HTMLInputElement>('Team code', {
      exact: false,
      selector: 'input',
    });
    expect(team.value).toBe('acne');
    type('Team code', 'acme');
    type('Password', 'Generated-1');
    submit();
    expect(await screen.findByText('team page')).toBeTruthy();
    expect(sentBody('/auth/signin')).toMatchObject({ username: 'mario.rossi', team: 'acme' });
    expect(router.state.location.pathname).toBe('/teams/acme');
  });

  it.each([
    ['teamRequired', 400, 'To sign in with a username, enter your team code too'],
    ['teamNotFound', 404, 'No team has this code'],
  ] as const)('asks for the team code on %s', async (code, status, text) => {
    fetchMock.mockImplementation(
      fetchRoutes({ 'POST /auth/signin': () => errorResponse(status, code) }),
    );
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'mario.rossi');
    type('Password', 'Generated-1');
    submit();
    expect(await screen.findByText(text, { exact: false })).toBeTruthy();
    expect(screen.queryByText('Incorrect e-mail or password')).toBeNull();
    expect(document.activeElement).toBe(
      screen.getByLabelText('Team code', { exact: false, selector: 'input' }),
    );
  });

  it('offers a new verification link when the e-mail is not verified yet', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'POST /auth/signin': () => errorResponse(403, 'notConfirmed'),
        'POST /auth/resend-verification': () => jsonResponse(200, {}),
      }),
    );
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'ada@example.com');
    type('Password', 'correct horse');
    submit();
    expect(await screen.findByText('Your e-mail address has not been verified yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send a new link' }));
    expect(
      await screen.findByText(
        'If ada@example.com has an account waiting for verification, a new link is on its way.',
        { exact: false },
      ),
    ).toBeTruthy();
    expect(sentBody('/auth/resend-verification')).toEqual({ email: 'ada@example.com' });
  });

  it("shows the server's errorCode translated, never its message", async () => {
    fetchMock.mockImplementation(
      fetchRoutes({ 'POST /auth/signin': () => errorResponse(401, 'notAuthorized') }),
    );
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'ada@example.com');
    type('Password', 'wrong password');
    submit();
    expect(await screen.findByText('Incorrect e-mail or password')).toBeTruthy();
    expect(screen.queryByText('server text')).toBeNull();
  });

  it('resets the session when the answer lacks tokens', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'POST /auth/signin': () => jsonResponse(200, { result: { TokenType: 'Bearer' } }),
      }),
    );
    const { manager } = renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'ada@example.com');
    type('Password', 'correct horse');
    submit();
    expect(await screen.findByText('It seems some tokens are missing')).toBeTruthy();
    expect(manager.getSnapshot().status).toBe('signedOut');
  });

  it('replaces the form with the set-new-password form when the server demands it', async () => {
    const challenge = { session: 'S1', teamId: TEAM_ID, username: 'mario.rossi' };
    fetchMock.mockImplementation(
      fetchRoutes({
        'POST /auth/signin': () => errorResponse(403, 'newPasswordRequired', challenge),
        'POST /auth/new-password': () => jsonResponse(200, { result: tokenSet() }),
      }),
    );
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'mario.rossi');
    type('Password', 'Generated-1');
    submit();

    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    expect(screen.queryByText('You need to set a new password.')).toBeNull();
    type('New password', 'weakpassword');
    type('Confirm password', 'different');
    submit('Save and sign in');
    expect(
      await screen.findByText(
        'Password must contain a number, a lowercase letter, an uppercase letter and a special character or underscore.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();

    type('New password', 'Brand-new-1');
    type('Confirm password', 'Brand-new-1');
    submit('Save and sign in');
    expect(await screen.findByText('teams page')).toBeTruthy();
    expect(sentBody('/auth/new-password')).toEqual({ newPassword: 'Brand-new-1', ...challenge });
  });

  it('says on the field that the new password must differ from the generated one', async () => {
    const challenge = { session: 'S1', teamId: TEAM_ID, username: 'mario.rossi' };
    fetchMock.mockImplementation(
      fetchRoutes({
        'POST /auth/signin': () => errorResponse(403, 'newPasswordRequired', challenge),
        'POST /auth/new-password': () => errorResponse(400, 'samePassword'),
      }),
    );
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'mario.rossi');
    type('Password', 'Generated-1');
    submit();
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeTruthy();
    type('New password', 'Generated-1');
    type('Confirm password', 'Generated-1');
    submit('Save and sign in');
    const message = await screen.findByText(
      'The new password must be different from the current one.',
    );
    const field = screen.getByLabelText('New password', { exact: false, selector: 'input' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toContain(message.id);
  });

  it('asks for the second factor, shows a wrong code, then signs in with the app code', async () => {
    const data = { challenge: 'C1', methods: ['totp', 'recovery'] };
    let attempts = 0;
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
        'POST /auth/signin': () => errorResponse(403, 'secondFactorRequired', data),
        'POST /auth/second-factor': () =>
          (attempts += 1) === 1
            ? errorResponse(400, 'wrongSecondFactorCode')
            : jsonResponse(200, { result: tokenSet() }),
      }),
    );
    renderRoutes(routes, '/auth/signin');
    type('E-mail or username', 'ada@example.com');
    type('Password', 'Sup3r-secret');
    submit();
    expect(await screen.findByRole('heading', { name: 'Confirm it’s you' })).toBeTruthy();
    expect(screen.queryByText('Confirm your sign-in with a second factor.')).toBeNull();
    // No passkey on this account: no passkey button.
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    type('Code from the authenticator app', '111 111');
    submit('Verify and sign in');
    expect(await screen.findByText('The code is not right, or it was already used.')).toBeTruthy();
    type('Code from the authenticator app', '123 456');
    submit('Verify and sign in');
    expect(await screen.findByText('teams page')).toBeTruthy();
    const sent = sentRequests(fetchMock).filter(
      (request) => request.path === '/auth/second-factor',
    );
    expect(sent.map((request) => request.body)).toEqual([
      { challenge: 'C1', totp: '111 111' },
      { challenge: 'C1', totp: '123 456' },
    ]);
  });

  it('takes a recovery code instead, in Italian too', async () => {
    await i18n.changeLanguage('it');
    const data = {
      challenge: 'C2',
      methods: ['totp', 'webauthn', 'recovery'],
      webauthn: { challenge: 'w' },
    };
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
        'POST /auth/signin': () => errorResponse(403, 'secondFactorRequired', data),
        'POST /auth/second-factor': () => jsonResponse(200, { result: tokenSet() }),
      }),
    );
    renderRoutes(routes, '/auth/signin');
    type('E-mail o nome utente', 'ada@example.com');
    type('Password', 'Sup3r-secret');
    submit('Accedi');
    expect(await screen.findByRole('heading', { name: 'Conferma che sei tu' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Usa una passkey' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Usa un codice di recupero' }));
    type('Codice di recupero', 'abcde-23456');
    submit('Verifica e accedi');
    expect(await screen.findByText('teams page')).toBeTruthy();
    expect(sentBody('/auth/second-factor')).toEqual({
      challenge: 'C2',
      recoveryCode: 'abcde-23456',
    });
  });

  it('offers a button per configured provider', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /auth/providers': () =>
          jsonResponse(200, { providers: [{ id: 'google', name: 'Google' }] }),
      }),
    );
    renderRoutes(routes, '/auth/signin');
    expect(await screen.findByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Microsoft/ })).toBeNull();
  });

  it('is in Italian for an Italian browser', async () => {
    await act(() => i18n.changeLanguage('it'));
    renderRoutes(routes, '/auth/signin');
    const form = screen.getByRole('button', { name: 'Accedi' }).closest('form');
    if (!form) throw new Error('no form');
    fireEvent.submit(form);
    expect(await within(form).findByText('E-mail o nome utente obbligatorio')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Password dimenticata?' })).toBeTruthy();
  });
});
