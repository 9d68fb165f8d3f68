import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../../../lib/auth/session/session-context';
import {
  forgetSignInRedirect,
  peekSignInRedirect,
  rememberSignInRedirect,
  signedInTarget,
} from '../../../lib/auth/sign-in-redirect';

/** Landing, sign-in and sign-up: a signed-in visitor is sent on (spec §2, global behaviour). */
export function GuestOnlyRoute() {
  const { status } = useSession();
  const { search } = useLocation();
  if (status === 'signedIn') {
    return (
      <Navigate to={signedInTarget(new URLSearchParams(search), peekSignInRedirect())} replace />
    );
  }
  return <Outlet />;
}

export const SIGN_IN_PATH = '/auth/signin';

/**
 * A page behind sign-in opened signed out (an e-mailed link, an expired session) goes to the
 * sign-in page, which says where it leads and continues there; after choosing to sign out, the
 * visitor goes to / (spec §2).
 */
function SignedOutRedirect({ from, remember }: { from: string; remember: boolean }) {
  // Stored before the sign-in page renders: it reads the path to say where it leads.
  if (remember) rememberSignInRedirect(from);
  return <Navigate to={remember ? SIGN_IN_PATH : '/'} replace />;
}

/** Pages for signed-in users; anyone else signs in first (or goes to / after signing out). */
export function LoginRoute() {
  const { status, signOutReason } = useSession();
  const { pathname, search, hash } = useLocation();

  useEffect(() => {
    // Arrived where the user wanted to be (or somewhere else by choice): the detour is over.
    if (status === 'signedIn') forgetSignInRedirect();
  }, [status]);

  if (status === 'signedOut') {
    // After choosing to sign out (here or in another tab), the next sign-in starts afresh.
    const remember = signOutReason !== 'user' && signOutReason !== 'elsewhere';
    return <SignedOutRedirect from={`${pathname}${search}${hash}`} remember={remember} />;
  }
  return <Outlet />;
}
