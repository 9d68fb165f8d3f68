import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi, beforeAll } from 'vitest';
import type { RouteObject } from 'react-router';
import { routes as appRoutes } from '../router';
import { renderRoutes, stubMatchMedia, eagerRoutes } from '../../test/providers';
import { AppLayout } from './app-layout';

let routes: RouteObject[];
beforeAll(async () => {
  routes = await eagerRoutes(appRoutes);
});

const scrollTo = vi.fn();

function renderAt(path: string, routeList = routes) {
  return renderRoutes(routeList, path).router;
}

const layoutOnly = [
  {
    element: <AppLayout />,
    children: [
      { path: '/profile', element: <p>profile</p> },
      { path: '/auth/signin', element: <p>sign-in</p> },
    ],
  },
];

describe('app layout and routes', () => {
  beforeEach(() => {
    stubMatchMedia();
    vi.stubGlobal('scrollTo', scrollTo);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('redirects an unknown path to /404', async () => {
    const router = renderAt('/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/404');
  });

  it('shows the header buttons and the footer on ordinary pages', () => {
    renderAt('/');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth/signin');
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/auth/signup');
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByText(`© ${new Date().getFullYear()} Raccolta`)).toBeTruthy();
    expect(footer.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe(
      '/terms',
    );
    expect(footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      '/privacy',
    );
  });

  it('hides the footer on /profile and the sign-in buttons under /auth', () => {
    renderAt('/profile', layoutOnly);
    expect(screen.queryByRole('contentinfo')).toBeNull();
    cleanup();
    renderAt('/auth/signin', layoutOnly);
    expect(screen.queryByRole('link', { name: 'Sign in' })).toBeNull();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });

  it('scrolls to the top when the path changes', async () => {
    const router = renderAt('/');
    scrollTo.mockClear();
    await act(() => router.navigate('/404?x=1'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    scrollTo.mockClear();
    await act(() => router.navigate('/404?x=2'));
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('toggles the theme, remembers it and marks the document', () => {
    renderAt('/');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(localStorage.getItem('themeMode')).toBe('dark');
    expect(document.documentElement.getAttribute('data-theme-mode')).toBe('dark');
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toBeTruthy();
  });
});
