import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, beforeAll } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../../../app/router';
import {
  eagerRoutes,
  fetchRoutes,
  jsonResponse,
  renderRoutes,
  stubMatchMedia,
} from '../../../test/providers';
import {
  ADA,
  createTestSessionManager,
  storeSession,
  tokenSet,
} from '../../../test/session-fixtures';
import { GuestOnlyRoute } from './route-guards';

let routes: RouteObject[];
beforeAll(async () => {
  routes = await eagerRoutes(appRoutes);
});

const fetchMock = vi.fn<typeof fetch>();
const TEAM = '0195f0c2-7c1a-7000-8000-00000000000a';
const DOWNLOAD = '0195f0c2-7c1a-7000-8000-00000000000d';
const NOT_FOUND = { statusCode: 404, errorCode: 'notFound', message: 'Not found' };
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

  it('sends a signed-out visitor of a login page to sign in, saying where it leads', async () => {
    const { router } = renderAt('/profile?tab=1');
    expect(await screen.findByText('Sign in to continue to your profile.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/signin');
    expect(sessionStorage.getItem('signInRedirect')).toBe('/profile?tab=1');
  });

  it('names the collection of an e-mailed download link on the sign-in page, then goes there', async () => {
    fetchMock.mockImplementation(
      fetchRoutes({
        'GET /auth/providers': () => jsonResponse(200, { providers: [] }),
        'POST /auth/signin': () => jsonResponse(200, { result: tokenSet() }),
        'GET /users/me': () => jsonResponse(200, ME),
        [`GET /teams/${TEAM}/downloads/${DOWNLOAD}`]: () => jsonResponse(404, NOT_FOUND),
      }),
    );
    const link = `/teams/${TEAM}/downloads/${DOWNLOAD}/download?collection=Wedding%20photos`;
    const { router } = renderAt(link);
    expect(await screen.findByText('Sign in to download “Wedding photos”.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/auth/signin');

    fireEvent.change(screen.getByLabelText('E-mail or username', { exact: false }), {
      target: { value: ADA.email },
    });
    fireEvent.change(screen.getByLabelText('Password', { exact: false, selector: 'input' }), {
      target: { value: 'Secret-pass1' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await vi.waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(link),
    );
  });

  it.each([
    ['/teams/x/collections/y', 'Sign in to continue to the collection.'],
    ['/teams/x/downloads/y/download', 'Sign in to download your archive.'],
    ['/teams/x', 'Sign in to continue to the team.'],
    ['/switch-team', 'Sign in to continue to your teams.'],
  ])('says where the sign-in of %s leads', async (path, text) => {
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse(200, { providers: [] })));
    renderAt(path);
    expect(await screen.findByText(text)).toBeTruthy();
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
