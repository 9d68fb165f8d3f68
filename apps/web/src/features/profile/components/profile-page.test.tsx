import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, beforeAll } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../../../app/router';
import {
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  sentRequests,
  stubMatchMedia,
  eagerRoutes,
} from '../../../test/providers';
import { ADA, createTestSessionManager, storeSession } from '../../../test/session-fixtures';

let routes: RouteObject[];
beforeAll(async () => {
  routes = await eagerRoutes(appRoutes);
});

const fetchMock = vi.fn<typeof fetch>();
const ME = {
  userId: ADA.sub,
  userScope: 'global',
  email: ADA.email,
  username: ADA.username,
  nickname: 'Ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
  avatarUrl: null,
};

const NO_FACTORS = { allowed: true, totp: false, recoveryCodesLeft: 0, passkeys: [] };
const factors = () => jsonResponse(200, NO_FACTORS);

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { exact: false, selector: 'input' });
}

function save(): HTMLButtonElement {
  return screen.getByRole('button', { name: 'Save' });
}

describe('profile page', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('fetch', fetchMock);
    storeSession();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
  });

  it('shows the e-mail read-only and saves only what changed', async () => {
    const put = vi.fn((body: unknown) => jsonResponse(200, { ...ME, ...(body as object) }));
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/second-factors': factors,
        'PUT /users/@me': put,
      }),
    );
    renderRoutes(routes, '/profile');
    await screen.findByDisplayValue('Lovelace');

    expect(field('E-mail').value).toBe('ada@example.com');
    expect(field('E-mail').readOnly).toBe(true);
    expect(save().disabled).toBe(true);

    fireEvent.change(field('Preferred name'), { target: { value: '  Countess' } });
    expect(field('Preferred name').value).toBe('Countess');
    expect(save().disabled).toBe(false);
    fireEvent.click(save());

    expect(await screen.findByText('Your profile has been updated.')).toBeTruthy();
    expect(put).toHaveBeenCalledWith({
      firstName: 'Ada',
      lastName: 'Lovelace',
      nickname: 'Countess',
    });
    expect(save().disabled).toBe(true);
    // The request carried the session's access token.
    const sent = sentRequests(fetchMock).find((request) => request.method === 'PUT');
    expect(sent?.headers.Authorization).toBe(`Bearer ${localStorage.getItem('AccessToken') ?? ''}`);
  });

  it('shows a validation message and a server error as a toast', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/sessions': () => jsonResponse(200, { sessions: [] }),
        'GET /users/@me/second-factors': factors,
        'PUT /users/@me': () => errorResponse(500, 'generic'),
      }),
    );
    renderRoutes(routes, '/profile');
    await screen.findByDisplayValue('Lovelace');

    fireEvent.change(field('First name'), { target: { value: ' ' } });
    fireEvent.click(save());
    expect(await screen.findByText('First name required')).toBeTruthy();

    fireEvent.change(field('First name'), { target: { value: 'Augusta' } });
    fireEvent.click(save());
    const toast = await screen.findByRole('alert');
    expect(within(toast).getByText('An error occurred')).toBeTruthy();
  });

  it('signs the user out when the current user answers 4xx', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => errorResponse(404, 'userNotFound'),
        'POST /auth/signout': () => jsonResponse(200, {}),
      }),
    );
    const { router, manager } = renderRoutes(routes, '/profile');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(manager.getSnapshot().status).toBe('signedOut');
    expect(localStorage.getItem('AccessToken')).toBeNull();
  });

  it('sets up an authenticator app: key shown, code confirmed, recovery codes shown once', async () => {
    let on = false;
    const codes = Array.from({ length: 10 }, (_, i) => `abcde-2345${i}`);
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/second-factors': () =>
          jsonResponse(200, { ...NO_FACTORS, totp: on, recoveryCodesLeft: on ? 10 : 0 }),
        'POST /users/@me/totp': () =>
          jsonResponse(200, {
            secret: 'JBSWY3DPEHPK3PXP',
            uri: 'otpauth://totp/Raccolta:ada?secret=JBSWY3DPEHPK3PXP',
          }),
        'POST /users/@me/totp/confirm': () => {
          on = true;
          return jsonResponse(200, { recoveryCodes: codes });
        },
      }),
    );
    renderRoutes(routes, '/profile');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Set up an authenticator app' }, { timeout: 5000 }),
    );
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeTruthy();
    expect(
      await screen.findByRole('img', { name: 'QR code for your authenticator app' }),
    ).toBeTruthy();
    fireEvent.change(field('Code from the authenticator app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(await screen.findByText('On: sign-in asks for a code from your app.')).toBeTruthy();
    expect(
      sentRequests(fetchMock).find((request) => request.path === '/users/@me/totp/confirm')?.body,
    ).toEqual({ code: '123456' });
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('asks for the password when a change comes long after the sign-in, then makes it', async () => {
    let confirmed = false;
    const codes = Array.from({ length: 10 }, (_, i) => `fghij-2345${i}`);
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/second-factors': () =>
          jsonResponse(200, { ...NO_FACTORS, totp: true, recoveryCodesLeft: 3 }),
        'POST /users/@me/recovery-codes': () =>
          confirmed
            ? jsonResponse(200, { recoveryCodes: codes })
            : jsonResponse(403, {
                statusCode: 403,
                errorCode: 'reauthenticationRequired',
                message: 'Confirm it is you',
                data: { methods: ['password', 'totp'] },
              }),
        'POST /users/@me/reauthenticate': (body) => {
          if ((body as { password?: string }).password !== 'right-password')
            return errorResponse(401, 'notAuthorized');
          confirmed = true;
          return jsonResponse(200, {});
        },
      }),
    );
    renderRoutes(routes, '/profile');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Generate new codes' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText(/Enter your password to change how you sign in/)).toBeTruthy();
    // The refusal itself is not shown as an error in the section.
    expect(screen.queryByText(/confirm it’s you before changing how you sign in/)).toBeNull();
    // The other way is offered, and back.
    fireEvent.click(
      within(dialog).getByRole('button', { name: 'Use the authenticator app instead' }),
    );
    expect(
      within(dialog).getByLabelText('Code from the authenticator app', { exact: false }),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use your password instead' }));

    fireEvent.change(within(dialog).getByLabelText('Password', { exact: false }), {
      target: { value: 'wrong' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(confirmed).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Password', { exact: false }), {
      target: { value: 'right-password' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    // Confirmed: the dialog closes and the new codes are made and shown.
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(
      sentRequests(fetchMock).filter((request) => request.path === '/users/@me/recovery-codes'),
    ).toHaveLength(2);
  });

  it('asks an account with neither password nor app to sign in again', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/second-factors': factors,
        'POST /users/@me/totp': () =>
          jsonResponse(403, {
            statusCode: 403,
            errorCode: 'reauthenticationRequired',
            message: 'Confirm it is you',
            data: { methods: [] },
          }),
      }),
    );
    renderRoutes(routes, '/profile');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Set up an authenticator app' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByText(/Sign in again to change how you sign in/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Sign in again' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await act(() => Promise.resolve());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('tells an internal contributor why no second factor can be added', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, { ...ME, email: null }),
        'GET /users/@me/second-factors': () => jsonResponse(200, { ...NO_FACTORS, allowed: false }),
      }),
    );
    renderRoutes(routes, '/profile');
    expect(
      await screen.findByText(/Accounts created by a team, without an e-mail address, cannot add/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set up an authenticator app' })).toBeNull();
  });

  it('shows the avatar menu in the header, whose Logout ends the session', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/sessions': () => jsonResponse(200, { sessions: [] }),
        'GET /users/@me/second-factors': factors,
      }),
    );
    const { manager, signOut } = createTestSessionManager();
    const accessToken = localStorage.getItem('AccessToken');
    const { router } = renderRoutes(routes, '/profile', { manager });
    const menuButton = await screen.findByRole(
      'button',
      { name: 'Account menu' },
      { timeout: 5000 },
    );
    // The initials are drawn by CSS from data-initials (not text: see UserAvatar).
    await vi.waitFor(() =>
      expect(menuButton.querySelector('[data-initials]')?.getAttribute('data-initials')).toBe('AL'),
    );
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Raccolta: choose a team' }).getAttribute('href')).toBe(
      '/switch-team',
    );

    fireEvent.click(menuButton);
    expect(screen.getByRole('menuitem', { name: 'Profile' }).getAttribute('href')).toBe('/profile');
    await act(async () => {
      fireEvent.click(screen.getByRole('menuitem', { name: 'Logout' }));
      await Promise.resolve();
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('AccessToken')).toBeNull();
    expect(signOut).toHaveBeenCalledWith(accessToken);
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeTruthy();
  });
});
