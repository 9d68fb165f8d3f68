/** What the rest of the app uses of the auth feature. */
export { currentUserQueryKey, useCurrentUser } from './api/get-current-user';
export { GuestOnlyRoute, LoginRoute } from './components/route-guards';
export { UserMenu } from './components/user-menu';
export type { AuthedRequest, AuthedRequestOptions } from './session/authed-request';
export { createBrowserSessionManager } from './session/browser-session';
export { useSession, type Session } from './session/session-context';
export { SessionManager } from './session/session-manager';
export { SessionProvider } from './session/session-provider';
