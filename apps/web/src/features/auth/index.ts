/** What the rest of the app uses of the auth feature. */
export { currentUserQueryKey, useCurrentUser } from './api/get-current-user';
export { GuestOnlyRoute, LoginRoute } from './components/route-guards';
export { AccountMenu, type AccountMenuItem } from './components/account-menu';
export { UserMenu } from './components/user-menu';
export type { AuthedRequest, AuthedRequestOptions } from './session/authed-request';
export { createBrowserSessionManager } from './session/browser-session';
export { useSession, type Session } from './session/session-context';
export { SessionManager } from './session/session-manager';
export { SessionProvider } from './session/session-provider';
export { AuthCard, AuthOutcome } from './components/auth-card';
export { PendingStatus } from './components/pending-status';
export { ProviderButtons } from './components/provider-buttons';
export { useRunOnce } from './hooks/use-run-once';
export type { Invitation } from './utils/oauth-redirect';
export {
  forgetSignInRedirect,
  peekSignInRedirect,
  rememberSignInRedirect,
  teamFromQuery,
} from './utils/sign-in-redirect';
export { isAppPath } from './utils/safe-path';
export { signInPurpose } from './utils/sign-in-purpose';
export { SignInForm } from './components/sign-in-form';
export { NewPasswordForm } from './components/new-password-form';
