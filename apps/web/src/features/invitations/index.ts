/** What the rest of the app uses of the invitations feature. */
export { AcceptInvitationPage } from './components/accept-invitation-page';
export { RejectInvitationPage } from './components/reject-invitation-page';
