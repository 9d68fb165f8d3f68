import type { FeatureFlag } from '@raccolta/contracts';
import { useClientConfig } from '../api/get-client-config';
import { isFlagOn, loadFlagOverrides, type FlagOverrides } from '../utils/flag-overrides';

let overrides: FlagOverrides | undefined;

/** This browser's overrides, read (and updated from the URL's `flags`) once per page load. */
function browserOverrides(): FlagOverrides {
  if (overrides === undefined) {
    try {
      overrides = loadFlagOverrides(window.localStorage, window.location.search);
    } catch {
      // Storage blocked by the browser: no overrides.
      overrides = {};
    }
  }
  return overrides;
}

/**
 * Whether a feature flag is on: the browser's override if it has one, else the server's
 * configuration. Off while the configuration loads or if it cannot be loaded.
 */
export function useFeatureFlag(flag: FeatureFlag): boolean {
  const local = browserOverrides()[flag];
  const data = useClientConfig();
  return local ?? isFlagOn(flag, data?.featureFlags ?? [], {});
}
