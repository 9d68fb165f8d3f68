import { CacheProvider } from '@emotion/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { SnackbarProvider } from '../components/snackbar';
import { createBrowserSessionManager } from '../features/auth/session/browser-session';
import { SessionProvider } from '../features/auth/session/session-provider';
import { UploadQueuesProvider } from '../features/upload-app/hooks/upload-queues';
import { QueryDevtools } from '../features/feature-flags/components/query-devtools';
import { AppThemeProvider } from '../theme/app-theme-provider';
import { createEmotionCache } from './emotion-cache';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

// Module-level singletons: one cache, one query client, one session and one router for the
// page's lifetime.
const emotionCache = createEmotionCache();
const queryClient = createQueryClient();
const sessionManager = createBrowserSessionManager();
const router = createAppRouter();

export function App() {
  return (
    <CacheProvider value={emotionCache}>
      <AppThemeProvider>
        <QueryClientProvider client={queryClient}>
          <SessionProvider manager={sessionManager}>
            <SnackbarProvider>
              {/* The upload app's uploads go on while the user looks at the team app. */}
              <UploadQueuesProvider>
                <RouterProvider router={router} />
              </UploadQueuesProvider>
            </SnackbarProvider>
          </SessionProvider>
          <QueryDevtools />
        </QueryClientProvider>
      </AppThemeProvider>
    </CacheProvider>
  );
}
