import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, beforeAll } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../../../app/router';
import { jsonResponse, renderRoutes, stubMatchMedia, eagerRoutes } from '../../../test/providers';
import { ADA, createTestSessionManager, storeSession } from '../../../test/session-fixtures';
import { GuestOnlyRoute } from './route-guards';

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

function renderAt(path: string) {
  return renderRoutes(routes, path);
}

describe('route guards', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('scrollTo', vi.fn());
    vi.stubGlobal('fetch', fetchMock);
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, ME)));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    localStorage.clear();
    sessionStorage.clear();
  });

  it('sends a signed-out visitor of a login page to / and remembers where they were going', async () => {
    const { router } = renderAt('/profile?tab=1');
    await screen.findByRole('heading', { level: 1, name: /Collect files/ });
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem('signInRedirect')).toBe('/profile?tab=1');
  });

  it.each(['/', '/auth/signin', '/auth/signup'])(
    'sends a signed-in visitor of %s to /teams',
    async (from) => {
      storeSession();
      const { router } = renderAt(from);
      expect(await screen.findByRole('heading', { name: 'Your teams' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/teams');
    },
  );

  it.each([
    ['?teamId=0195f0c2-7c1a-7000-8000-00000000000a', '/teams/0195f0c2-7c1a-7000-8000-00000000000a'],
    ['?team=my-team', '/teams/my-team'],
    ['?teamId=abc&team=other', '/teams/abc'],
  ])('sends a signed-in visitor of a guest-only page with %s to %s', async (query, to) => {
    storeSession();
    // The team dashboard belongs to the teams feature; a stand-in route shows where we landed.
    const teamRoutes = [
      {
        element: <GuestOnlyRoute />,
        children: [{ path: '/auth/signin', element: <p>sign-in</p> }],
      },
      { path: '/teams/:team', element: <p>team page</p> },
    ];
    const { router } = renderRoutes(teamRoutes, `/auth/signin${query}`);
    expect(await screen.findByText('team page')).toBeTruthy();
    expect(router.state.location.pathname).toBe(to);
  });

  it('returns a signed-in visitor to the page a login guard sent them away from', async () => {
    sessionStorage.setItem('signInRedirect', '/profile');
    storeSession();
    const { router } = renderAt('/auth/signin');
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
    // Arrived: a later sign-in goes to the default page again.
    expect(sessionStorage.getItem('signInRedirect')).toBeNull();
  });

  it('ignores a remembered location outside the app', async () => {
    sessionStorage.setItem('signInRedirect', '//evil.example/x');
    storeSession();
    const { router } = renderAt('/auth/signin');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/teams'));
  });

  it('lets anyone open the pages of e-mailed links', async () => {
    storeSession();
    const { router } = renderAt('/auth/verify');
    expect(await screen.findByText('This verification link is not valid.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/verify');
  });

  it('shows login pages to a signed-in user, and leaves them for / on sign-out', async () => {
    storeSession();
    const { router, manager } = renderAt('/teams');
    expect(await screen.findByRole('heading', { name: 'Your teams' })).toBeTruthy();

    await act(() => manager.signOut());
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    // A chosen sign-out is not a detour to come back from.
    expect(sessionStorage.getItem('signInRedirect')).toBeNull();
  });

  it('leaves a login page when the session ends in another tab', async () => {
    storeSession();
    const { manager } = createTestSessionManager();
    const stop = manager.start();
    const { router } = renderRoutes(routes, '/switch-team', { manager });
    expect(await screen.findByRole('heading', { name: 'Choose a team' })).toBeTruthy();

    act(() => {
      localStorage.clear();
      window.dispatchEvent(new StorageEvent('storage', { key: null, storageArea: localStorage }));
    });
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/'));
    stop();
  });
});
