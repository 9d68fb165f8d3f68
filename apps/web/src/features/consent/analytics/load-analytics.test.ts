import { afterEach, describe, expect, it } from 'vitest';
import {
  ANALYTICS_SCRIPT_ID,
  loadAnalytics,
  matomoCommands,
  trackPageView,
} from './load-analytics';

const matomo = {
  provider: 'matomo' as const,
  scriptUrl: 'https://m.example/matomo.js',
  trackerUrl: 'https://m.example/matomo.php',
  siteId: '3',
};

afterEach(() => {
  document.getElementById(ANALYTICS_SCRIPT_ID)?.remove();
  delete window._paq;
});

describe('loading analytics', () => {
  it('adds the Plausible script once, with the site’s domain', () => {
    const settings = {
      provider: 'plausible' as const,
      scriptUrl: 'https://p.example/js/script.js',
      domain: 'raccolta.example',
    };
    expect(loadAnalytics(settings)).toBe(true);
    expect(loadAnalytics(settings)).toBe(false);
    const scripts = document.querySelectorAll<HTMLScriptElement>(`script#${ANALYTICS_SCRIPT_ID}`);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.src).toBe(settings.scriptUrl);
    expect(scripts[0]?.dataset.domain).toBe('raccolta.example');
    // Plausible's script follows client-side navigation itself.
    trackPageView(settings);
    expect(window._paq).toBeUndefined();
  });

  it('configures Matomo without cookies or fingerprinting before its first page view', () => {
    expect(matomoCommands(matomo)).toEqual([
      ['disableCookies'],
      ['disableBrowserFeatureDetection'],
      ['setDoNotTrack', true],
      ['setTrackerUrl', 'https://m.example/matomo.php'],
      ['setSiteId', '3'],
      ['trackPageView'],
    ]);
    loadAnalytics(matomo);
    expect(window._paq?.[0]).toEqual(['disableCookies']);
    expect(document.getElementById(ANALYTICS_SCRIPT_ID)?.getAttribute('src')).toBe(
      matomo.scriptUrl,
    );
  });

  it('counts a Matomo page view on client-side navigation', () => {
    loadAnalytics(matomo);
    const before = window._paq?.length ?? 0;
    trackPageView(matomo);
    expect(window._paq?.slice(before).map((command) => command[0])).toEqual([
      'setCustomUrl',
      'setDocumentTitle',
      'trackPageView',
    ]);
  });
});
