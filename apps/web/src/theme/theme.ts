import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './theme-mode';

export const PRIMARY_COLOR = '#1976d2';

// System fonts only: nothing is fetched from the network and the CSP stays 'self'.
const SYSTEM_FONT_STACK = [
  'system-ui',
  '-apple-system',
  '"Segoe UI"',
  'Roboto',
  '"Helvetica Neue"',
  'Arial',
  '"Noto Sans"',
  'sans-serif',
  '"Apple Color Emoji"',
  '"Segoe UI Emoji"',
].join(',');

export function createAppTheme(mode: ThemeMode): Theme {
  return createTheme({
    palette: { mode, primary: { main: PRIMARY_COLOR } },
    typography: { fontFamily: SYSTEM_FONT_STACK, button: { textTransform: 'none' } },
  });
}
