import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { createAppTheme } from './theme';
import {
  DARK_SCHEME_QUERY,
  oppositeMode,
  readStoredThemeMode,
  resolveThemeMode,
  storeThemeMode,
  THEME_MODE_ATTRIBUTE,
  type ThemeMode,
} from './theme-mode';
import { ThemeModeContext } from './theme-mode-context';

function subscribeToSystemScheme(onChange: () => void): () => void {
  const query = window.matchMedia(DARK_SCHEME_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function systemPrefersDark(): boolean {
  return window.matchMedia(DARK_SCHEME_QUERY).matches;
}

function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function AppThemeProvider({ children }: { children: ReactNode }) {
  // Read synchronously so the first render already has the mode theme-init.js painted.
  const [stored, setStored] = useState<ThemeMode | null>(() =>
    readStoredThemeMode(safeLocalStorage()),
  );
  const prefersDark = useSyncExternalStore(subscribeToSystemScheme, systemPrefersDark);
  const mode = resolveThemeMode(stored, prefersDark);

  useEffect(() => {
    document.documentElement.setAttribute(THEME_MODE_ATTRIBUTE, mode);
  }, [mode]);

  const toggleMode = useCallback(() => {
    const next = oppositeMode(mode);
    storeThemeMode(safeLocalStorage(), next);
    setStored(next);
  }, [mode]);

  const theme = useMemo(() => createAppTheme(mode), [mode]);
  const contextValue = useMemo(() => ({ mode, toggleMode }), [mode, toggleMode]);

  return (
    <ThemeModeContext value={contextValue}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
      </ThemeProvider>
    </ThemeModeContext>
  );
}
