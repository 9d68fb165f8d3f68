import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from './layout/app-layout';
import { GuestOnlyRoute, LoginRoute } from '../features/auth/components/route-guards';
import { DownloadsProvider } from '../features/downloads/components/downloads-provider';
import { LandingPage } from '../features/landing/components/landing-page';
import { SubscribeForm } from '../features/newsletter/components/subscribe-form';
import { withPageNeeds } from '../lib/page-needs';
import { NOT_FOUND_PATH } from '../lib/paths';
import { RouteErrorPage } from './route-error-page';
import { ScrollToTop } from '../components/scroll-to-top';

export { NOT_FOUND_PATH };

function RootRoute() {
  return (
    // Collection downloads are followed whichever page of the team app is shown.
    <DownloadsProvider>
      <ScrollToTop />
      <AppLayout />
    </DownloadsProvider>
  );
}

/**
 * What shows while the first page's code arrives: nothing, the boot colours of index.html (the
 * chunk is small and near; a spinner would only flash).
 */
function FirstPageFallback() {
  return null;
}

/** The team app's pages, inside its layout. */
const pageRoutes: RouteObject[] = [
  // Spec §2 access levels: guest-only pages send a signed-in visitor on…
  {
    element: <GuestOnlyRoute />,
    children: [
      { index: true, element: <LandingPage newsletter={<SubscribeForm />} /> },
      {
        path: 'auth/signin',
        lazy: () =>
          import('../features/auth/components/sign-in-page').then((m) => ({
            Component: m.SignInPage,
          })),
      },
      {
        path: 'auth/signup',
        lazy: () =>
          import('../features/auth/components/sign-up-page').then((m) => ({
            Component: m.SignUpPage,
          })),
      },
    ],
  },
  // …guest pages serve anyone: links from e-mails must work whoever is signed in…
  {
    path: 'auth/forgot',
    lazy: () =>
      import('../features/auth/components/forgot-password-page').then((m) => ({
        Component: m.ForgotPasswordPage,
      })),
  },
  {
    path: 'auth/reset',
    lazy: () =>
      import('../features/auth/components/reset-password-page').then((m) => ({
        Component: m.ResetPasswordPage,
      })),
  },
  {
    path: 'auth/verify',
    lazy: () =>
      import('../features/auth/components/verify-email-page').then((m) => ({
        Component: m.VerifyEmailPage,
      })),
  },
  {
    path: 'auth/callback',
    lazy: () =>
      import('../features/auth/components/oauth-callback-page').then((m) => ({
        Component: m.OAuthCallbackPage,
      })),
  },
  // …and login pages send anyone else to /.
  {
    element: <LoginRoute />,
    children: [
      {
        path: 'profile',
        lazy: () =>
          import('../features/profile/components/profile-page').then((m) => ({
            Component: m.ProfilePage,
          })),
      },
      {
        path: 'teams',
        lazy: () =>
          import('../features/teams/components/teams-page').then((m) => ({
            Component: m.TeamsPage,
          })),
      },
      {
        path: 'switch-team',
        lazy: () =>
          import('../features/teams/components/switch-team-page').then((m) => ({
            Component: m.SwitchTeamPage,
          })),
      },
      {
        path: 'teams/:teamRef',
        lazy: () =>
          import('./team-dashboard-page').then((m) => ({
            Component: m.TeamDashboardPage,
          })),
      },
      {
        path: 'teams/:teamRef/trash',
        lazy: () =>
          import('../features/trash/components/trash-page').then((m) => ({
            Component: m.TrashPage,
          })),
      },
      {
        path: 'teams/:teamRef/collections/:collectionId',
        lazy: () =>
          import('../features/files/components/collection-files-page').then((m) => ({
            Component: m.CollectionFilesPage,
          })),
      },
      {
        path: 'teams/:teamRef/collections/:collectionId/links/:linkId/poster',
        lazy: () =>
          import('../features/collections/components/upload-link-poster-page').then((m) => ({
            Component: m.UploadLinkPosterPage,
          })),
      },
      {
        path: 'teams/:teamId/downloads/:downloadId/download',
        lazy: () =>
          import('../features/downloads/components/download-page').then((m) => ({
            Component: m.DownloadPage,
          })),
      },
    ],
  },
  // Invitation links work signed in or not: the server decides what the visitor must do.
  {
    path: 'teams/:teamId/invitations/accept',
    lazy: () =>
      import('../features/invitations/components/accept-invitation-page').then((m) => ({
        Component: m.AcceptInvitationPage,
      })),
  },
  {
    path: 'teams/:teamId/invitations/reject',
    lazy: () =>
      import('../features/invitations/components/reject-invitation-page').then((m) => ({
        Component: m.RejectInvitationPage,
      })),
  },
  // Newsletter links (spec §2: anyone may open them), like the verify link.
  {
    path: 'unsubscribe',
    lazy: () =>
      import('../features/newsletter/components/unsubscribe-page').then((m) => ({
        Component: m.UnsubscribePage,
      })),
  },
  {
    path: 'digests/unsubscribe',
    lazy: () =>
      import('../features/newsletter/components/digest-unsubscribe-page').then((m) => ({
        Component: m.DigestUnsubscribePage,
      })),
  },
  {
    path: 'newsletter/confirm',
    lazy: () =>
      import('../features/newsletter/components/confirm-subscription-page').then((m) => ({
        Component: m.ConfirmSubscriptionPage,
      })),
  },
  {
    path: 'status',
    lazy: () =>
      import('../features/status/components/status-page').then((m) => ({
        Component: m.StatusPage,
      })),
  },
  {
    path: 'terms',
    lazy: () =>
      import('../features/legal/components/legal-page').then((m) => ({
        Component: m.TermsPage,
      })),
  },
  {
    path: 'privacy',
    lazy: () =>
      import('../features/legal/components/legal-page').then((m) => ({
        Component: m.PrivacyPage,
      })),
  },
  {
    path: NOT_FOUND_PATH,
    lazy: () =>
      import('../features/not-found/components/not-found-page').then((m) => ({
        Component: m.NotFoundPage,
      })),
  },
  // Spec §2: any unknown path redirects to /404 rather than rendering the page in place.
  { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
];

const appRoutes: RouteObject[] = [
  // The contributor upload app: its own frame for phones, its own sign-in, installable (PWA).
  {
    path: 'upload',
    // Lazy like its pages: a visitor of the team app never downloads the upload app's frame.
    lazy: () =>
      import('./upload/upload-app-layout').then((m) => ({
        Component: m.UploadAppLayout,
      })),
    HydrateFallback: FirstPageFallback,
    ErrorBoundary: RouteErrorPage,
    children: [
      {
        lazy: () =>
          import('../features/upload-app/components/upload-route-guards').then((m) => ({
            Component: m.UploadGuestRoute,
          })),
        children: [
          {
            path: 'signin',
            lazy: () =>
              import('./upload/upload-sign-in-page').then((m) => ({
                Component: m.UploadSignInPage,
              })),
          },
        ],
      },
      // A guest's upload link (issue #36): no account, signed in or not.
      {
        path: 'l/:token',
        lazy: () =>
          import('../features/upload-app/components/guest-link-page').then((m) => ({
            Component: m.GuestLinkPage,
          })),
      },
      {
        lazy: () =>
          import('../features/upload-app/components/upload-route-guards').then((m) => ({
            Component: m.UploadLoginRoute,
          })),
        children: [
          {
            index: true,
            lazy: () =>
              import('../features/upload-app/components/upload-teams-page').then((m) => ({
                Component: m.UploadTeamsPage,
              })),
          },
          {
            // The manifest's share_target: the service worker keeps the shared files and sends here.
            path: 'share',
            lazy: () =>
              import('../features/upload-app/components/upload-share-page').then((m) => ({
                Component: m.UploadSharePage,
              })),
          },
          {
            path: 'teams/:teamRef',
            lazy: () =>
              import('./upload/upload-collections-page').then((m) => ({
                Component: m.UploadCollectionsPage,
              })),
          },
          {
            path: 'teams/:teamRef/collections/:collectionId',
            lazy: () =>
              import('../features/upload-app/components/upload-collection-page').then((m) => ({
                Component: m.UploadCollectionPage,
              })),
          },
        ],
      },
      { path: '*', element: <Navigate to="/upload" replace /> },
    ],
  },
  {
    element: <RootRoute />,
    HydrateFallback: FirstPageFallback,
    ErrorBoundary: RouteErrorPage,
    // A page that fails to load or render shows its error inside the layout, header included.
    children: [{ ErrorBoundary: RouteErrorPage, children: pageRoutes }],
  },
];

/** Every lazy route waits for what pages need besides their own code (app/page-needs.ts). */
function withNeeds(list: RouteObject[]): RouteObject[] {
  return list.map((route) => {
    const { lazy, children } = route;
    const wrapped: RouteObject = { ...route };
    if (typeof lazy === 'function') wrapped.lazy = withPageNeeds(lazy);
    if (children !== undefined) wrapped.children = withNeeds(children);
    return wrapped;
  });
}

export const routes: RouteObject[] = withNeeds(appRoutes);

export function createAppRouter() {
  return createBrowserRouter(routes);
}
