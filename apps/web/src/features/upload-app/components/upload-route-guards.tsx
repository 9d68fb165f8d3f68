import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import {
  forgetSignInRedirect,
  peekSignInRedirect,
  rememberSignInRedirect,
  teamFromQuery,
} from '../../../lib/auth/sign-in-redirect';
import { useSession } from '../../../lib/auth/session/session-context';
import {
  isUploadAppPath,
  UPLOAD_APP_PATH,
  UPLOAD_SIGN_IN_PATH,
  uploadTeamPath,
} from '../../../lib/upload-paths';

/**
 * Where a signed-in visitor of the upload app's sign-in page goes: the team of the query (a link
 * with ?team=), else the upload page they were sent away from, else the start of the app.
 */
export function uploadSignedInTarget(search: URLSearchParams, remembered: string | null): string {
  const team = teamFromQuery(search);
  if (team !== null) return uploadTeamPath(team);
  return isUploadAppPath(remembered) ? remembered : UPLOAD_APP_PATH;
}

/** /upload/signin: a signed-in visitor goes on into the upload app, never to the team app. */
export function UploadGuestRoute() {
  const { status } = useSession();
  const { search } = useLocation();
  if (status === 'signedIn') {
    return (
      <Navigate
        to={uploadSignedInTarget(new URLSearchParams(search), peekSignInRedirect())}
        replace
      />
    );
  }
  return <Outlet />;
}

function SignedOutRedirect({ from, remember }: { from: string; remember: boolean }) {
  // Stored before the sign-in page renders: it reads the path to say where it leads.
  if (remember) rememberSignInRedirect(from);
  return <Navigate to={UPLOAD_SIGN_IN_PATH} replace />;
}

/** The upload app's pages: a signed-out visitor signs in inside the app and comes back here. */
export function UploadLoginRoute() {
  const { status, signOutReason } = useSession();
  const { pathname, search } = useLocation();

  useEffect(() => {
    if (status === 'signedIn') forgetSignInRedirect();
  }, [status]);

  if (status === 'signedOut') {
    // After choosing to sign out, the next sign-in starts at the beginning.
    const remember = signOutReason !== 'user' && signOutReason !== 'elsewhere';
    return <SignedOutRedirect from={`${pathname}${search}`} remember={remember} />;
  }
  return <Outlet />;
}
