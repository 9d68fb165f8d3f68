import { z } from 'zod';
import { FEATURE_FLAGS } from './constants.js';

export const ANALYTICS_PROVIDERS = ['plausible', 'matomo'] as const;
export type AnalyticsProvider = (typeof ANALYTICS_PROVIDERS)[number];

const httpUrl = z.url({ protocol: /^https?$/ });

/**
 * The analytics the web app may load once the visitor has accepted cookies (spec §4 Consent).
 * Plausible: the script tags its events with `domain`. Matomo: the tracker sends to `trackerUrl`
 * for the site `siteId`.
 */
export const analyticsSettingsSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('plausible'), scriptUrl: httpUrl, domain: z.string().min(1) }),
  z.object({
    provider: z.literal('matomo'),
    scriptUrl: httpUrl,
    trackerUrl: httpUrl,
    siteId: z.string().min(1),
  }),
]);
export type AnalyticsSettings = z.infer<typeof analyticsSettingsSchema>;

/** `GET /client-config`: what the server's configuration tells the web app, for anyone. */
export const clientConfigResponseSchema = z.object({
  /** Feature flags switched on by configuration; the browser may override each one locally. */
  featureFlags: z.array(z.enum(FEATURE_FLAGS)),
  /** null: no analytics configured, nothing is ever loaded. */
  analytics: analyticsSettingsSchema.nullable(),
});
export type ClientConfigResponse = z.infer<typeof clientConfigResponseSchema>;
