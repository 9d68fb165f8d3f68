export { ConsentBanner } from './components/consent-banner';
export { ConsentResetButton } from './components/consent-reset-button';
