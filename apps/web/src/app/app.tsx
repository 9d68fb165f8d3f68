import { CacheProvider } from '@emotion/react';
import { RouterProvider } from 'react-router';
import { SnackbarProvider } from '../components/snackbar';
import { createBrowserSessionManager } from '../lib/auth/session/browser-session';
import { SessionProvider } from '../lib/auth/session/session-provider';
import { UploadQueuesProvider } from '../features/upload-app/hooks/upload-queues';
import { QueryDevtools } from '../components/query-devtools';
import { AppThemeProvider } from '../theme/app-theme-provider';
import { createEmotionCache } from '../lib/emotion-cache';
import { QueryLayer } from '../lib/query-layer';
import { createAppRouter } from './router';

// Module-level singletons: one cache, one session and one router for the page's lifetime (and
// one query client, app/query-layer.tsx, once a page needs it).
const emotionCache = createEmotionCache();
const sessionManager = createBrowserSessionManager();
const router = createAppRouter();

export function App() {
  return (
    <CacheProvider value={emotionCache}>
      <AppThemeProvider>
        <QueryLayer>
          <SessionProvider manager={sessionManager}>
            <SnackbarProvider>
              {/* The upload app's uploads go on while the user looks at the team app. */}
              <UploadQueuesProvider>
                <RouterProvider router={router} />
              </UploadQueuesProvider>
            </SnackbarProvider>
          </SessionProvider>
          <QueryDevtools />
        </QueryLayer>
      </AppThemeProvider>
    </CacheProvider>
  );
}
