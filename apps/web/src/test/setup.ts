import { focusManager, onlineManager } from '@tanstack/react-query';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, vi } from 'vitest';
import { i18n } from '../i18n';
import { reportReachability } from '../lib/reachability';
import { preloadSnackbarView } from '../components/snackbar';
import { preloadConsentResetButton } from '../features/consent/components/consent-reset-button';
import { preloadDownloadsTracker } from '../features/downloads/components/downloads-provider';

// The message bar, the downloads' tracker and the cookie button are lazy chunks in the app; the
// tests find them already loaded, as after their first use, so they show in the same render
// (snackbar-provider.test.tsx covers a first load).
await Promise.all([preloadSnackbarView(), preloadDownloadsTracker(), preloadConsentResetButton()]);
const startLanguage = i18n.language;

// The web project runs its files one after another in the same modules and document
// (`isolate: false`, vitest.config.ts): what one test leaves in the page is taken down after it,
// and what one file leaves in the browser's state or in the shared libraries after that file.
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

afterAll(async () => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  window.history.replaceState(null, '', '/');
  document.documentElement.removeAttribute('data-theme');
  // A request that got no answer marks the server out of reach until the next that gets one.
  reportReachability(true);
  onlineManager.setOnline(true);
  focusManager.setFocused(undefined);
  if (i18n.language !== startLanguage) await i18n.changeLanguage(startLanguage);
});
