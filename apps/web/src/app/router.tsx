import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { LandingPage } from '../features/landing/components/landing-page';
import { NotFoundPage } from '../features/not-found/components/not-found-page';
import { StatusPage } from '../features/status/components/status-page';
import { ScrollToTop } from './scroll-to-top';

export const NOT_FOUND_PATH = '/404';

function RootRoute() {
  return (
    <>
      <ScrollToTop />
      <AppLayout />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'status', element: <StatusPage /> },
      { path: NOT_FOUND_PATH, element: <NotFoundPage /> },
      // Spec §2: any unknown path redirects to /404 rather than rendering the page in place.
      { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
