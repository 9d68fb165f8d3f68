import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { GuestOnlyRoute, LoginRoute } from '../features/auth';
import { ForgotPasswordPage } from '../features/auth/components/forgot-password-page';
import { OAuthCallbackPage } from '../features/auth/components/oauth-callback-page';
import { ResetPasswordPage } from '../features/auth/components/reset-password-page';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { SignUpPage } from '../features/auth/components/sign-up-page';
import { VerifyEmailPage } from '../features/auth/components/verify-email-page';
import { LandingPage } from '../features/landing/components/landing-page';
import { NotFoundPage } from '../features/not-found/components/not-found-page';
import { ProfilePage } from '../features/profile/components/profile-page';
import { StatusPage } from '../features/status/components/status-page';
import { DownloadPage, DownloadsProvider } from '../features/downloads';
import { CollectionFilesPage } from '../features/files';
import { AcceptInvitationPage, RejectInvitationPage } from '../features/invitations';
import { ConfirmSubscriptionPage, UnsubscribePage } from '../features/newsletter';
import { SwitchTeamPage, TeamDashboardPage, TeamsPage } from '../features/teams';
import {
  UploadAppLayout,
  UploadCollectionPage,
  UploadCollectionsPage,
  UploadGuestRoute,
  UploadLoginRoute,
  UploadSignInPage,
  UploadTeamsPage,
} from '../features/upload-app';
import { NOT_FOUND_PATH } from './paths';
import { ScrollToTop } from './scroll-to-top';

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

export const routes: RouteObject[] = [
  // The contributor upload app: its own frame for phones, its own sign-in, installable (PWA).
  {
    path: 'upload',
    element: <UploadAppLayout />,
    children: [
      {
        element: <UploadGuestRoute />,
        children: [{ path: 'signin', element: <UploadSignInPage /> }],
      },
      {
        element: <UploadLoginRoute />,
        children: [
          { index: true, element: <UploadTeamsPage /> },
          { path: 'teams/:teamRef', element: <UploadCollectionsPage /> },
          { path: 'teams/:teamRef/collections/:collectionId', element: <UploadCollectionPage /> },
        ],
      },
      { path: '*', element: <Navigate to="/upload" replace /> },
    ],
  },
  {
    element: <RootRoute />,
    children: [
      // Spec §2 access levels: guest-only pages send a signed-in visitor on…
      {
        element: <GuestOnlyRoute />,
        children: [
          { index: true, element: <LandingPage /> },
          { path: 'auth/signin', element: <SignInPage /> },
          { path: 'auth/signup', element: <SignUpPage /> },
        ],
      },
      // …guest pages serve anyone: links from e-mails must work whoever is signed in…
      { path: 'auth/forgot', element: <ForgotPasswordPage /> },
      { path: 'auth/reset', element: <ResetPasswordPage /> },
      { path: 'auth/verify', element: <VerifyEmailPage /> },
      { path: 'auth/callback', element: <OAuthCallbackPage /> },
      // …and login pages send anyone else to /.
      {
        element: <LoginRoute />,
        children: [
          { path: 'profile', element: <ProfilePage /> },
          { path: 'teams', element: <TeamsPage /> },
          { path: 'switch-team', element: <SwitchTeamPage /> },
          { path: 'teams/:teamRef', element: <TeamDashboardPage /> },
          { path: 'teams/:teamRef/collections/:collectionId', element: <CollectionFilesPage /> },
          { path: 'teams/:teamId/downloads/:downloadId/download', element: <DownloadPage /> },
        ],
      },
      // Invitation links work signed in or not: the server decides what the visitor must do.
      { path: 'teams/:teamId/invitations/accept', element: <AcceptInvitationPage /> },
      { path: 'teams/:teamId/invitations/reject', element: <RejectInvitationPage /> },
      // Newsletter links (spec §2: anyone may open them), like the verify link.
      { path: 'unsubscribe', element: <UnsubscribePage /> },
      { path: 'newsletter/confirm', element: <ConfirmSubscriptionPage /> },
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
