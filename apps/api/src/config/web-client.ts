import { FEATURE_FLAGS, type AnalyticsSettings } from '@raccolta/contracts';
import { z } from 'zod';
import { csv, invalid, type Base } from './env.js';

/** What the web app is told (GET /client-config): feature flags and analytics. */
export const webClientEnv = z.object({
  FEATURE_FLAGS: csv.pipe(z.array(z.enum(FEATURE_FLAGS))).optional(),
  ANALYTICS_PROVIDER: z.enum(['plausible', 'matomo']).optional(),
  ANALYTICS_SCRIPT_URL: z.url({ protocol: /^https?$/ }).optional(),
  ANALYTICS_SITE_ID: z.string().optional(),
});

type WebClientEnv = z.output<typeof webClientEnv>;

export function webClientConfig(e: WebClientEnv, base: Pick<Base, 'publicUrl'>) {
  return {
    /** Feature flags on for every browser (each may override them locally). */
    featureFlags: [...new Set(e.FEATURE_FLAGS ?? [])],
    /** Loaded by the web app only after the visitor accepts cookies; null: none. */
    analytics: analytics(e, base.publicUrl),
  };
}

function analytics(e: WebClientEnv, publicUrl: string): AnalyticsSettings | null {
  if (!e.ANALYTICS_PROVIDER) return null;
  const scriptUrl = e.ANALYTICS_SCRIPT_URL;
  if (!scriptUrl) throw invalid('ANALYTICS_SCRIPT_URL', 'required with ANALYTICS_PROVIDER');
  if (e.ANALYTICS_PROVIDER === 'plausible') {
    return {
      provider: 'plausible',
      scriptUrl,
      domain: e.ANALYTICS_SITE_ID ?? new URL(publicUrl).host,
    };
  }
  if (!e.ANALYTICS_SITE_ID) {
    throw invalid('ANALYTICS_SITE_ID', 'required with ANALYTICS_PROVIDER=matomo');
  }
  // Matomo serves its tracker endpoint beside its script (…/matomo.js → …/matomo.php).
  return {
    provider: 'matomo',
    scriptUrl,
    trackerUrl: new URL('matomo.php', scriptUrl).href,
    siteId: e.ANALYTICS_SITE_ID,
  };
}
