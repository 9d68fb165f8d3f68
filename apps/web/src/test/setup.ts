import '../i18n';
import { preloadSnackbarView } from '../components/snackbar';
import { preloadConsentResetButton } from '../features/consent/components/consent-reset-button';
import { preloadDownloadsTracker } from '../features/downloads/components/downloads-provider';

// The message bar, the downloads' tracker and the cookie button are lazy chunks in the app; the
// tests find them already loaded, as after their first use, so they show in the same render
// (snackbar-provider.test.tsx covers a first load).
await Promise.all([preloadSnackbarView(), preloadDownloadsTracker(), preloadConsentResetButton()]);
