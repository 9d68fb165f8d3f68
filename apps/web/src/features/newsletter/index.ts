/** What the rest of the app uses of the newsletter feature. */
export { ConfirmSubscriptionPage } from './components/confirm-subscription-page';
export { SubscribeForm } from './components/subscribe-form';
export { UnsubscribePage } from './components/unsubscribe-page';
