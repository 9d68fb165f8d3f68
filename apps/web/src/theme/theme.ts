import { createTheme, type Theme } from '@mui/material/styles';
import type { ThemeMode } from './theme-mode';

/** The brand colour: filled buttons and accents in dark mode, the app's icon and theme colour. */
export const PRIMARY_COLOR = '#1976d2';
/**
 * The primary colour of the light theme, a darker tone of the brand blue (MUI's blue 800). Text in
 * primary (links, outlined and text buttons, outlined chips) sits on white, on hover tints (4 %
 * black on a hovered row, 4 % primary on a hovered button) and on selection tints (8–12 %): the
 * brand blue measures 4.6:1 on white but 3.9–4.4:1 on those, under WCAG AA's 4.5:1; this one keeps
 * 4.8:1 or more on all of them, and white on it (filled buttons) is 5.7:1.
 */
export const PRIMARY_ON_LIGHT = '#1565c0';
/**
 * Filled info alerts (toasts) carry white text: MUI's #0288d1 gives 3.9:1, this (light blue 800)
 * 4.8:1.
 */
const INFO_ON_LIGHT = '#0277bd';
/**
 * A lighter tone of the brand blue for text on dark surfaces: #1976d2 measures 4.1:1 on the dark
 * page and 2.5:1 on dialogs, under WCAG AA's 4.5:1; this one measures 6.5:1 even on the lightest
 * dark surface (a dialog's).
 */
export const PRIMARY_TEXT_ON_DARK = '#90caf9';
/** Filled error chips, badges and buttons carry white text: #c62828 keeps it at 5.6:1. */
const ERROR_FILL_ON_DARK = '#c62828';
/** Filled success chips ("Active") carry white text: #2e7d32 keeps it at 5.1:1. */
const SUCCESS_FILL_ON_DARK = '#2e7d32';
/**
 * Filled warning chips ("Invited") and toasts carry white text: MUI's #ed6c02 gives 3.1:1, this
 * 4.7:1.
 */
const WARNING_FILL = '#b35c00';
const warningChip = {
  props: { variant: 'filled' as const, color: 'warning' as const },
  style: { backgroundColor: WARNING_FILL, color: '#fff' },
};

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

const typography = { fontFamily: SYSTEM_FONT_STACK, button: { textTransform: 'none' as const } };

/**
 * User-chosen names (a 50-character username, a 30-character nickname) have no spaces to break
 * at: dialog titles and texts, alerts and toasts break them anywhere rather than overflowing a
 * 375 px screen.
 */
const breakAnywhere = { overflowWrap: 'anywhere' as const };
/**
 * A link in an alert takes the alert's text colour (underlined, so it still reads as a link): the
 * brand blue on the pale info, success and warning backgrounds is about 4.1:1, under AA.
 */
const linkInAlert = { '& a': { color: 'inherit', textDecorationColor: 'currentColor' } };
const sharedComponents = {
  MuiDialogTitle: { styleOverrides: { root: breakAnywhere } },
  MuiDialogContentText: { styleOverrides: { root: breakAnywhere } },
  MuiAlert: { styleOverrides: { message: { ...breakAnywhere, minWidth: 0, ...linkInAlert } } },
  MuiSnackbarContent: { styleOverrides: { message: { ...breakAnywhere, minWidth: 0 } } },
};

/**
 * Light: the brand blue everywhere. Dark: `primary` is the lighter tone, so every text, link,
 * outlined button, tab and icon in primary reads at AA contrast; what is filled with primary
 * (contained buttons, filled chips) keeps the brand blue with white text.
 */
export function createAppTheme(mode: ThemeMode): Theme {
  if (mode === 'light') {
    return createTheme({
      palette: {
        mode,
        primary: { main: PRIMARY_ON_LIGHT },
        info: { main: INFO_ON_LIGHT },
        warning: { main: WARNING_FILL },
      },
      typography,
      components: {
        ...sharedComponents,
        MuiChip: { styleOverrides: { root: { variants: [warningChip] } } },
      },
    });
  }
  const brandFill = { backgroundColor: PRIMARY_COLOR, color: '#fff' };
  return createTheme({
    palette: { mode, primary: { main: PRIMARY_TEXT_ON_DARK, dark: PRIMARY_COLOR } },
    typography,
    components: {
      ...sharedComponents,
      MuiButton: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { variant: 'contained', color: 'primary' },
                style: { ...brandFill, '&:hover': { backgroundColor: '#1565c0' } },
              },
              {
                // The confirm button of what cannot be undone: white on MUI's #f44336 is 3.7:1.
                props: { variant: 'contained', color: 'error' },
                style: {
                  backgroundColor: ERROR_FILL_ON_DARK,
                  color: '#fff',
                  '&:hover': { backgroundColor: '#b71c1c' },
                },
              },
            ],
          },
        },
      },
      MuiFab: {
        styleOverrides: {
          root: {
            variants: [
              {
                props: { color: 'primary' },
                style: { ...brandFill, '&:hover': { backgroundColor: '#1565c0' } },
              },
            ],
          },
        },
      },
      MuiChip: {
        styleOverrides: {
          root: {
            variants: [
              { props: { variant: 'filled', color: 'primary' }, style: brandFill },
              warningChip,
              {
                props: { variant: 'filled', color: 'error' },
                style: { backgroundColor: ERROR_FILL_ON_DARK, color: '#fff' },
              },
              {
                props: { variant: 'filled', color: 'success' },
                style: { backgroundColor: SUCCESS_FILL_ON_DARK, color: '#fff' },
              },
            ],
          },
        },
      },
    },
  });
}
