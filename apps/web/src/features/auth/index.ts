/** What the rest of the app uses of the auth feature. */
export { GuestOnlyRoute, LoginRoute } from './components/route-guards';
export { UserMenu } from './components/user-menu';
export { signInPurpose } from './utils/sign-in-purpose';
export { SignInForm } from './components/sign-in-form';
export { NewPasswordForm } from './components/new-password-form';
