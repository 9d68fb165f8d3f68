import { cleanup, screen } from '@testing-library/react';
import { Outlet } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes, stubMatchMedia } from '../test/providers';
import { isChunkLoadError, RouteErrorPage } from './route-error-page';

function Layout() {
  return (
    <>
      <header>Header stays</header>
      <Outlet />
    </>
  );
}

function Broken(): never {
  throw new Error('render failed');
}

const routes = [
  {
    element: <Layout />,
    children: [
      {
        ErrorBoundary: RouteErrorPage,
        children: [
          {
            path: '/missing-chunk',
            lazy: () =>
              Promise.reject(
                new TypeError(
                  'Failed to fetch dynamically imported module: http://localhost/assets/page-abc.js',
                ),
              ),
          },
          { path: '/broken', Component: Broken },
        ],
      },
    ],
  },
];

describe('the page shown when a route fails', () => {
  beforeEach(() => {
    stubMatchMedia();
    // React and the router report the caught error on the console; that is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('says a page that did not arrive can be reloaded, inside the layout', async () => {
    renderRoutes(routes, '/missing-chunk');
    expect(
      await screen.findByRole('heading', { name: 'This page could not be shown' }),
    ).toBeTruthy();
    expect(screen.getByText(/connection may have dropped/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/');
    expect(screen.getByText('Header stays')).toBeTruthy();
    expect(screen.queryByText(/Hey developer/)).toBeNull();
  });

  it('words a page that throws while rendering as a general failure', async () => {
    renderRoutes(routes, '/broken');
    expect(await screen.findByText(/Something went wrong while showing this page/)).toBeTruthy();
  });

  it('recognises the chunk failures of Chromium, Firefox and Safari only', () => {
    expect(
      isChunkLoadError(
        new TypeError('Failed to fetch dynamically imported module: https://x/a.js'),
      ),
    ).toBe(true);
    expect(
      isChunkLoadError(new TypeError('error loading dynamically imported module: https://x/a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('render failed'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});
