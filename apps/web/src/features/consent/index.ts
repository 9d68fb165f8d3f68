export { ConsentBanner } from './components/consent-banner';
export { ConsentResetButton, preloadConsentResetButton } from './components/consent-reset-button';
