import { FEATURE_FLAGS, type FeatureFlag } from '@raccolta/contracts';

/** localStorage key of this browser's overrides: `{"lang-switcher": true, "query-dev": false}`. */
export const FLAG_OVERRIDES_KEY = 'featureFlags';
/** `?flags=lang-switcher,-query-dev` sets overrides; `?flags=reset` forgets them all. */
export const FLAGS_QUERY_PARAM = 'flags';
const RESET = 'reset';

export type FlagOverrides = Partial<Record<FeatureFlag, boolean>>;

const isFlag = (name: string): name is FeatureFlag =>
  (FEATURE_FLAGS as readonly string[]).includes(name);

/**
 * Reads a `flags` query value into changes to the stored overrides: `name` switches a flag on,
 * `-name` off; unknown names are ignored. `reset` (anywhere in the list) starts from no overrides.
 */
export function parseFlagsParam(value: string): { reset: boolean; changes: FlagOverrides } {
  const changes: FlagOverrides = {};
  let reset = false;
  for (const raw of value.split(',')) {
    const item = raw.trim().toLowerCase();
    if (item === RESET) {
      reset = true;
      continue;
    }
    const off = item.startsWith('-');
    const name = off ? item.slice(1) : item;
    if (isFlag(name)) changes[name] = !off;
  }
  return { reset, changes };
}

/** Stored overrides; anything malformed or unknown in storage is ignored. */
export function parseStoredOverrides(stored: string | null): FlagOverrides {
  if (stored === null) return {};
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const overrides: FlagOverrides = {};
  for (const [name, on] of Object.entries(value)) {
    if (isFlag(name) && typeof on === 'boolean') overrides[name] = on;
  }
  return overrides;
}

/** The overrides after applying a `flags` query value to the stored ones. */
export function applyFlagsParam(stored: FlagOverrides, param: string | null): FlagOverrides {
  if (param === null) return stored;
  const { reset, changes } = parseFlagsParam(param);
  return { ...(reset ? {} : stored), ...changes };
}

/** A flag is on when this browser says so, else when the server's configuration says so. */
export function isFlagOn(
  flag: FeatureFlag,
  serverFlags: readonly FeatureFlag[],
  overrides: FlagOverrides,
): boolean {
  return overrides[flag] ?? serverFlags.includes(flag);
}

/**
 * Applies the page URL's `flags` parameter (if any) to the overrides kept in `storage` and returns
 * them. Run once when the app starts.
 */
export function loadFlagOverrides(storage: Storage, search: string): FlagOverrides {
  const stored = parseStoredOverrides(storage.getItem(FLAG_OVERRIDES_KEY));
  const param = new URLSearchParams(search).get(FLAGS_QUERY_PARAM);
  const overrides = applyFlagsParam(stored, param);
  if (param !== null) {
    try {
      if (Object.keys(overrides).length === 0) storage.removeItem(FLAG_OVERRIDES_KEY);
      else storage.setItem(FLAG_OVERRIDES_KEY, JSON.stringify(overrides));
    } catch {
      // Storage full or blocked: the overrides hold for this page load only.
    }
  }
  return overrides;
}
