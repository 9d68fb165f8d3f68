import { lazy, Suspense, useEffect } from 'react';
import { readCspNonce } from '../lib/emotion-cache';
import { loadQueryClient, useLoadedQueryClient } from '../lib/query-layer';
import { useFeatureFlag } from '../lib/feature-flags/hooks/use-feature-flag';

// Its own chunk, fetched only when the flag is on: the devtools never weigh on the normal bundle.
// The `production` entry, because the default one renders nothing outside development builds.
const ReactQueryDevtools = lazy(() =>
  import('@tanstack/react-query-devtools/production').then((module) => ({
    default: module.ReactQueryDevtools,
  })),
);

/** TanStack Query devtools (their floating button, bottom left) when the query-dev flag is on. */
export function QueryDevtools() {
  const on = useFeatureFlag('query-dev');
  const client = useLoadedQueryClient();
  // The landing page has no query client of its own: the flag brings one, for the devtools to show.
  useEffect(() => {
    if (on) void loadQueryClient();
  }, [on]);
  if (!on || client === null) return null;
  const nonce = readCspNonce();
  return (
    <Suspense fallback={null}>
      <ReactQueryDevtools
        buttonPosition="bottom-left"
        {...(nonce === undefined ? {} : { styleNonce: nonce })}
      />
    </Suspense>
  );
}
