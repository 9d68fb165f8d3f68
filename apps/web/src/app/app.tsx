import { CacheProvider } from '@emotion/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { SnackbarProvider } from '../components/snackbar';
import { AppThemeProvider } from '../theme/app-theme-provider';
import { createEmotionCache } from './emotion-cache';
import { createQueryClient } from './query-client';
import { createAppRouter } from './router';

// Module-level singletons: one cache, one query client and one router for the page's lifetime.
const emotionCache = createEmotionCache();
const queryClient = createQueryClient();
const router = createAppRouter();

export function App() {
  return (
    <CacheProvider value={emotionCache}>
      <AppThemeProvider>
        <QueryClientProvider client={queryClient}>
          <SnackbarProvider>
            <RouterProvider router={router} />
          </SnackbarProvider>
        </QueryClientProvider>
      </AppThemeProvider>
    </CacheProvider>
  );
}
