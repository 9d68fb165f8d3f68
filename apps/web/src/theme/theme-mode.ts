export type ThemeMode = 'light' | 'dark';

/** Shared with src/boot/theme-init.js (inlined into index.html), which applies the mode before the first paint. */
export const THEME_MODE_STORAGE_KEY = 'themeMode';
export const THEME_MODE_ATTRIBUTE = 'data-theme-mode';
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

export function isThemeMode(value: unknown): value is ThemeMode {
  return value === 'light' || value === 'dark';
}

/** The mode the user chose with the toggle, or null to follow the system. */
export function readStoredThemeMode(
  storage: Pick<Storage, 'getItem'> | undefined,
): ThemeMode | null {
  try {
    const value = storage?.getItem(THEME_MODE_STORAGE_KEY);
    return isThemeMode(value) ? value : null;
  } catch {
    // Storage may be blocked (privacy settings); the system preference still applies.
    return null;
  }
}

export function storeThemeMode(
  storage: Pick<Storage, 'setItem'> | undefined,
  mode: ThemeMode,
): void {
  try {
    storage?.setItem(THEME_MODE_STORAGE_KEY, mode);
  } catch {
    // Not remembered across reloads, but the toggle still works for this visit.
  }
}

export function resolveThemeMode(stored: ThemeMode | null, systemPrefersDark: boolean): ThemeMode {
  return stored ?? (systemPrefersDark ? 'dark' : 'light');
}

export function oppositeMode(mode: ThemeMode): ThemeMode {
  return mode === 'dark' ? 'light' : 'dark';
}
