import {
  FEATURE_FLAGS,
  type AnalyticsSettings,
  type ClientConfigResponse,
  type FeatureFlag,
} from '@raccolta/contracts';
import type { ResponseSchema } from '../../api-client';

// The contracts' clientConfigResponseSchema, checked by hand: every page asks for the client
// configuration, a visitor's first one included, and Zod is not downloaded for it.
// client-config-schema.test.ts holds the two to the same answers.

type Parsed = ReturnType<ResponseSchema<ClientConfigResponse>['safeParse']>;

const invalid = (message: string): Parsed => ({
  success: false,
  error: { issues: [{ message }] },
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

function analyticsOf(value: unknown): AnalyticsSettings | null | undefined {
  if (value === null) return null;
  if (!isRecord(value)) return undefined;
  const { provider, scriptUrl } = value;
  if (!isHttpUrl(scriptUrl)) return undefined;
  if (provider === 'plausible') {
    return isText(value.domain) ? { provider, scriptUrl, domain: value.domain } : undefined;
  }
  if (provider === 'matomo') {
    const { trackerUrl, siteId } = value;
    return isHttpUrl(trackerUrl) && isText(siteId)
      ? { provider, scriptUrl, trackerUrl, siteId }
      : undefined;
  }
  return undefined;
}

const isFeatureFlag = (value: unknown): value is FeatureFlag =>
  (FEATURE_FLAGS as readonly unknown[]).includes(value);

export const clientConfigShape: ResponseSchema<ClientConfigResponse> = {
  safeParse(value) {
    if (!isRecord(value)) return invalid('an object was expected');
    const { featureFlags } = value;
    if (!Array.isArray(featureFlags) || !featureFlags.every(isFeatureFlag)) {
      return invalid('featureFlags: a list of known flags was expected');
    }
    const analytics = analyticsOf(value.analytics);
    if (analytics === undefined) return invalid('analytics: null or valid settings were expected');
    return { success: true, data: { featureFlags: [...featureFlags], analytics } };
  },
};
