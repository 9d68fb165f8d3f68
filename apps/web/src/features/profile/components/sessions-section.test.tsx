import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../../../app/router';
import {
  eagerRoutes,
  errorResponse,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  sentRequests,
  stubMatchMedia,
} from '../../../test/providers';
import { ADA, storeSession } from '../../../test/session-fixtures';

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
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
const SESSIONS = [
  {
    sessionId: 'here',
    browser: 'Chrome',
    os: 'Windows',
    createdAt: minutesAgo(3 * 24 * 60),
    lastUsedAt: minutesAgo(0),
    current: true,
  },
  {
    sessionId: 'phone',
    browser: 'Firefox',
    os: 'Android',
    createdAt: minutesAgo(60),
    lastUsedAt: minutesAgo(5),
    current: false,
  },
  {
    sessionId: 'old',
    browser: null,
    os: null,
    createdAt: minutesAgo(10 * 24 * 60),
    lastUsedAt: minutesAgo(2 * 24 * 60),
    current: false,
  },
];

function rows(): HTMLElement[] {
  return screen.getAllByTestId('session');
}

describe('profile sessions', () => {
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

  it('lists the devices, this one marked, with when each was last active', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/sessions': () => jsonResponse(200, { sessions: SESSIONS }),
      }),
    );
    renderRoutes(routes, '/profile');
    expect(
      await screen.findByRole('heading', { name: 'Sessions' }, { timeout: 5000 }),
    ).toBeTruthy();
    await screen.findByText('Firefox on Android');
    const [here, phone, old] = rows().map((row) => within(row));
    if (!here || !phone || !old) throw new Error('three sessions expected');
    expect(here.getByText('Chrome on Windows')).toBeTruthy();
    expect(here.getByText('This device')).toBeTruthy();
    expect(here.getByText('Last active now')).toBeTruthy();
    // No way to sign this device out from here: that is the account menu's Logout.
    expect(here.queryByRole('button')).toBeNull();
    expect(phone.getByText('Last active 5 minutes ago')).toBeTruthy();
    expect(phone.queryByText('This device')).toBeNull();
    expect(old.getByText('Unknown device')).toBeTruthy();
    expect(old.getByText('Last active 2 days ago')).toBeTruthy();
    expect(old.getByText(/^Signed in on /)).toBeTruthy();
  });

  it('signs one other device out', async () => {
    let sessions = SESSIONS;
    const del = vi.fn(() => {
      sessions = sessions.filter((s) => s.sessionId !== 'phone');
      return new Response(null, { status: 204 });
    });
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/sessions': () => jsonResponse(200, { sessions }),
        'DELETE /users/@me/sessions/phone': del,
      }),
    );
    renderRoutes(routes, '/profile');
    await screen.findByText('Firefox on Android', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Sign out Firefox on Android' }));
    expect(await screen.findByText('Firefox on Android has been signed out.')).toBeTruthy();
    expect(del).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByText('Firefox on Android')).toBeNull();
  });

  it('signs out everywhere else after a confirmation, and says how many', async () => {
    let sessions = SESSIONS;
    const others = vi.fn(() => {
      sessions = sessions.filter((s) => s.current);
      return jsonResponse(200, { revoked: 2 });
    });
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/sessions': () => jsonResponse(200, { sessions }),
        'POST /users/@me/sessions/revoke-others': others,
      }),
    );
    renderRoutes(routes, '/profile');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Sign out everywhere else' }, { timeout: 5000 }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    // Cancel asks nothing.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(others).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'Sign out the others',
      }),
    );
    expect(await screen.findByText('2 other devices have been signed out.')).toBeTruthy();
    expect(others).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('No other device is signed in.')).toBeTruthy();
    expect(rows()).toHaveLength(1);
    const sent = sentRequests(fetchMock).find((r) => r.path.endsWith('/revoke-others'));
    expect(sent?.headers.Authorization).toBe(`Bearer ${localStorage.getItem('AccessToken') ?? ''}`);
  });

  it('says when the list cannot be loaded, and tries again', async () => {
    let fail = true;
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /users/@me': () => jsonResponse(200, ME),
        'GET /users/@me/sessions': () =>
          fail ? errorResponse(500, 'generic') : jsonResponse(200, { sessions: SESSIONS }),
      }),
    );
    renderRoutes(routes, '/profile');
    const alert = await screen.findByText('An error occurred', {}, { timeout: 5000 });
    fail = false;
    fireEvent.click(within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button'));
    expect(await screen.findByText('Firefox on Android')).toBeTruthy();
  });
});
