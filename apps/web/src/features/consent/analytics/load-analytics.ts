import type { AnalyticsSettings } from '@raccolta/contracts';

export const ANALYTICS_SCRIPT_ID = 'raccolta-analytics';

/** Matomo's command queue, read by its script when it loads. */
type MatomoQueue = unknown[][];
declare global {
  interface Window {
    _paq?: MatomoQueue;
  }
}

/**
 * Matomo commands before the first page view. The tracker itself cannot anonymise addresses:
 * that is the Matomo server's "Anonymize visitors' IP addresses" setting, which an installation
 * used for Raccolta must have on (docs/decisions.md). Ad signals: Matomo sends none, and nothing
 * here enables campaign or e-commerce tracking.
 */
export function matomoCommands(
  settings: Extract<AnalyticsSettings, { provider: 'matomo' }>,
): unknown[][] {
  return [
    // No cookies at all: the visit is counted without an identifier kept in the browser.
    ['disableCookies'],
    // No probing of browser features (plugins, screen) that could fingerprint the visitor.
    ['disableBrowserFeatureDetection'],
    // A browser that asks not to be tracked is not.
    ['setDoNotTrack', true],
    ['setTrackerUrl', settings.trackerUrl],
    ['setSiteId', settings.siteId],
    ['trackPageView'],
  ];
}

/**
 * Adds the configured analytics script to the page, once; false when it was there already. Called
 * only when the visitor has accepted cookies; nothing reaches the analytics host before.
 */
export function loadAnalytics(settings: AnalyticsSettings, doc: Document = document): boolean {
  if (doc.getElementById(ANALYTICS_SCRIPT_ID) !== null) return false;
  const script = doc.createElement('script');
  script.id = ANALYTICS_SCRIPT_ID;
  if (settings.provider === 'plausible') {
    // Plausible keeps no IP address and sets no cookie; its script counts client-side
    // navigation (history.pushState) by itself.
    script.defer = true;
    script.dataset.domain = settings.domain;
  } else {
    const view = doc.defaultView ?? window;
    view._paq = [...(view._paq ?? []), ...matomoCommands(settings)];
    script.async = true;
  }
  script.src = settings.scriptUrl;
  doc.head.appendChild(script);
  return true;
}

/** A page view after client-side navigation, for the providers that do not see it by themselves. */
export function trackPageView(settings: AnalyticsSettings, doc: Document = document): void {
  if (settings.provider !== 'matomo') return;
  const view = doc.defaultView ?? window;
  (view._paq ??= []).push(
    ['setCustomUrl', view.location.href],
    ['setDocumentTitle', doc.title],
    ['trackPageView'],
  );
}
