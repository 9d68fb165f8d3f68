import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useClientConfig } from '../../../lib/feature-flags/api/get-client-config';
import { useConsent } from '../hooks/use-consent';
import { loadAnalytics, trackPageView } from './load-analytics';

/**
 * Starts the configured analytics once consent is true (also on a later visit with the cookie
 * set), never before; declining or not choosing loads nothing. Counts client-side navigation for
 * the providers that need it.
 */
export function useAnalytics(): void {
  const consent = useConsent();
  const data = useClientConfig();
  const settings = consent === true ? (data?.analytics ?? null) : null;
  const { pathname, search } = useLocation();
  const tracked = useRef<string | null>(null);

  useEffect(() => {
    if (settings === null) return;
    const page = pathname + search;
    if (tracked.current === page) return;
    tracked.current = page;
    // The script counts the page it loads on; later pages (and another layout mounting this
    // hook after the script loaded) are counted here.
    if (!loadAnalytics(settings)) trackPageView(settings);
  }, [settings, pathname, search]);
}
